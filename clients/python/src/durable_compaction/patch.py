"""Context patches: how the client's mirror becomes the new context (src/contract/patch.ts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def apply_patch(base: Sequence[Any], patch: Mapping[str, Any]) -> list[Any]:
    """Applies a ``prepare``/``append`` result's patch to the mirror followed by the messages just sent.

    ``copy: [from, to]`` is a slice of ``base``; ``insert`` is literal messages.

    Returns:
        the new context.
    Raises:
        IndexError: when a copy range falls outside ``base`` (the mirror was not at ``patch["baseVersion"]``).
    """
    out: list[Any] = []
    for segment in patch["segments"]:
        if "copy" in segment:
            start, end = segment["copy"]
            if start < 0 or end > len(base) or start > end:
                raise IndexError(f"patch copies [{start}, {end}) of {len(base)} messages")
            out.extend(base[start:end])
        else:
            out.extend(segment["insert"])
    return out

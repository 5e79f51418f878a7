"""Send-time normalisation of a Chat Completions context (src/core/messages/send.ts for format ``chat``): each call's
results in call order right after the calls, and no call left without a result (per the ``unanswered`` setting)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import UnansweredCallError

_UNMATCHED = 1 << 62


def _calls(message: Any) -> list[tuple[str, str]]:
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return []
    out: list[tuple[str, str]] = []
    for call in message.get("tool_calls") or []:
        # Custom (free-form) tools carry `custom: {name, input}` instead of `function: {name, arguments}`.
        fn = call.get("function") if isinstance(call.get("function"), dict) else call.get("custom")
        out.append((str(call.get("id")), str(fn.get("name")) if isinstance(fn, dict) else ""))
    return out


def _is_result(message: Any) -> bool:
    return isinstance(message, dict) and message.get("role") == "tool"


def _pair(messages: Sequence[Any]) -> list[tuple[int, int] | None]:
    """Returns, per message, the (message index, call index) of the call a tool result answers: the nearest earlier
    unanswered call with its id (real sessions reuse call ids); None for other messages and unpairable results."""
    open_calls: dict[str, list[list[Any]]] = {}
    answers: list[tuple[int, int] | None] = []
    for i, message in enumerate(messages):
        for c, (call_id, _name) in enumerate(_calls(message)):
            open_calls.setdefault(call_id, []).append([i, c, False])
        answer: tuple[int, int] | None = None
        if _is_result(message):
            for candidate in reversed(open_calls.get(str(message.get("tool_call_id")), [])):
                if not candidate[2]:
                    candidate[2] = True
                    answer = (candidate[0], candidate[1])
                    break
        answers.append(answer)
    return answers


def _order_results(messages: list[Any]) -> list[Any]:
    """Reorders every contiguous run of tool results into the order of the calls they answer (stable; results that
    answer no call after the matched ones)."""
    answers = _pair(messages)
    out = list(messages)
    start = 0
    while start < len(messages):
        if not _is_result(messages[start]):
            start += 1
            continue
        end = start
        while end < len(messages) and _is_result(messages[end]):
            end += 1

        def key(k: int) -> int:
            a = answers[k]
            return a[0] * 65536 + a[1] if a is not None else _UNMATCHED

        for offset, k in enumerate(sorted(range(start, end), key=key)):
            out[start + offset] = messages[k]
        start = end
    return out


def not_run_result(call_id: str, name: str) -> dict[str, Any]:
    """Returns the deterministic result the workflow synthesizes for a call that was not run."""
    text = f"[not run] The call to {name or 'the tool'} ({call_id}) was not executed, so it has no output."
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def prepare_chat_for_send(messages: Sequence[Any], unanswered: str) -> list[Any]:
    """Returns the context as it should be sent: every call answered, results in call order.

    Raises:
        UnansweredCallError: with ``unanswered == "error"`` when a call has no result.
    """
    answered = {a for a in _pair(messages) if a is not None}
    inserts: dict[int, list[Any]] = {}
    for i, message in enumerate(messages):
        for c, (call_id, name) in enumerate(_calls(message)):
            if (i, c) in answered:
                continue
            if unanswered == "error":
                raise UnansweredCallError(f"message {i}: call '{call_id}' ({name}) has no result at send time")
            at = i + 1
            while at < len(messages) and _is_result(messages[at]):
                at += 1
            inserts.setdefault(at, []).append(not_run_result(call_id, name))
    out: list[Any] = []
    for i in range(len(messages) + 1):
        out.extend(inserts.get(i, []))
        if i < len(messages):
            out.append(messages[i])
    return _order_results(out)

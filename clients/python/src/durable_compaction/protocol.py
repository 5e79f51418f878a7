"""The wire names and bounds of the conversation workflow (docs/protocol.md; src/contract in the TypeScript package)."""

from __future__ import annotations

import json
import re
from typing import Any

#: The protocol version this client speaks (``PROTOCOL_VERSION`` of src/contract/protocol-version.ts).
PROTOCOL_VERSION = 1
WORKFLOW_TYPE = "conversationWorkflow"
WORKFLOW_ID_PREFIX = "conversation-"
#: Longest ``waitForFold`` wait, ms.
MAX_FOLD_WAIT_MS = 600_000
#: Largest update input, bytes of JSON (src/contract/update-size.ts: 2 MiB minus 32 KiB of envelope).
MAX_UPDATE_INPUT_BYTES = 2_064_384
#: The wire formats a conversation can be started with (``s0`` is the typed format's former name).
MESSAGE_FORMATS = ("chat", "responses", "typed", "s0", "anthropic", "gemini", "ai-sdk")

CONVERSATION_ID = re.compile(r"^[A-Za-z0-9_:@-][A-Za-z0-9._:@-]{0,199}$")
WRITER_ID = re.compile(r"^[A-Za-z0-9._:@-]{1,128}$")


def conversation_workflow_id(conversation_id: str) -> str:
    """Returns the workflow id that owns a conversation."""
    return f"{WORKFLOW_ID_PREFIX}{conversation_id}"


def conversation_id_problem(conversation_id: object) -> str | None:
    """Returns why ``conversation_id`` is not a valid conversation id (the TypeScript client's wording), or None."""
    if not isinstance(conversation_id, str):
        return f"the conversation id must be a string, got {type(conversation_id).__name__}"
    if CONVERSATION_ID.match(conversation_id):
        return None
    if conversation_id == "":
        return "the conversation id must not be empty"
    if len(conversation_id) > 200:
        return f"the conversation id is {len(conversation_id)} characters long, at most 200 are allowed"
    return (
        f"the conversation id {json.dumps(conversation_id)} may only hold ASCII letters, digits and . _ - : @ "
        "(not starting with '.')"
    )


def json_bytes(value: Any) -> int:
    """Returns the UTF-8 length of ``value`` as compact JSON (as ``JSON.stringify`` writes it)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))

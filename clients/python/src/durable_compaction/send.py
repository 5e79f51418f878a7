"""Send-time normalisation of Chat Completions and Responses contexts (src/core/messages/send.ts for formats ``chat``
and ``responses``): each call's results in call order right after the calls, and no call left without a result (per
the ``unanswered`` setting). Other formats are normalised by the workflow (the ``sendable`` query)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from .errors import UnansweredCallError

#: The formats normalised here.
Format = Literal["chat", "responses"]
_UNMATCHED = 1 << 62


def _calls(message: Any, format: Format) -> list[tuple[str, str, str]]:
    """Returns the (call id, name, kind) of each tool call ``message`` makes."""
    if not isinstance(message, dict):
        return []
    if format == "responses":
        kind = message.get("type")
        if not isinstance(kind, str) or not kind.endswith("_call"):
            return []
        if "call_id" not in message and kind != "function_call":
            return []
        named = kind in ("function_call", "custom_tool_call")
        return [(str(message.get("call_id")), str(message.get("name")) if named else kind, kind)]
    if message.get("role") != "assistant":
        return []
    out: list[tuple[str, str, str]] = []
    for call in message.get("tool_calls") or []:
        # Custom (free-form) tools carry `custom: {name, input}` instead of `function: {name, arguments}`.
        fn = call.get("function") if isinstance(call.get("function"), dict) else call.get("custom")
        out.append((str(call.get("id")), str(fn.get("name")) if isinstance(fn, dict) else "", "function"))
    return out


def _result_for(message: Any, format: Format) -> str | None:
    """Returns the call id a tool result answers, or None when ``message`` is no tool result."""
    if not isinstance(message, dict):
        return None
    if format == "responses":
        kind = message.get("type")
        is_output = isinstance(kind, str) and kind.endswith("_call_output") and "call_id" in message
        return str(message["call_id"]) if is_output else None
    return str(message.get("tool_call_id")) if message.get("role") == "tool" else None


def _pair(messages: Sequence[Any], format: Format) -> list[tuple[int, int] | None]:
    """Returns, per message, the (message index, call index) of the call a tool result answers: the nearest earlier
    unanswered call with its id (real sessions reuse call ids); None for other messages and unpairable results."""
    open_calls: dict[str, list[list[Any]]] = {}
    answers: list[tuple[int, int] | None] = []
    for i, message in enumerate(messages):
        for c, (call_id, _name, _kind) in enumerate(_calls(message, format)):
            open_calls.setdefault(call_id, []).append([i, c, False])
        answer: tuple[int, int] | None = None
        answered = _result_for(message, format)
        if answered is not None:
            for candidate in reversed(open_calls.get(answered, [])):
                if not candidate[2]:
                    candidate[2] = True
                    answer = (candidate[0], candidate[1])
                    break
        answers.append(answer)
    return answers


def _order_results(messages: list[Any], format: Format) -> list[Any]:
    """Reorders every contiguous run of tool results into the order of the calls they answer (stable; results that
    answer no call after the matched ones)."""
    answers = _pair(messages, format)
    out = list(messages)
    start = 0
    while start < len(messages):
        if _result_for(messages[start], format) is None:
            start += 1
            continue
        end = start
        while end < len(messages) and _result_for(messages[end], format) is not None:
            end += 1

        def key(k: int) -> int:
            a = answers[k]
            return a[0] * 65536 + a[1] if a is not None else _UNMATCHED

        for offset, k in enumerate(sorted(range(start, end), key=key)):
            out[start + offset] = messages[k]
        start = end
    return out


def not_run_result(call_id: str, name: str, kind: str, format: Format) -> dict[str, Any]:
    """Returns the deterministic result the workflow synthesizes for a call that was not run."""
    text = f"[not run] The call to {name or 'the tool'} ({call_id}) was not executed, so it has no output."
    if format == "responses":
        output_type = f"{kind}_output" if kind != "function_call" else "function_call_output"
        return {"type": output_type, "call_id": call_id, "output": text}
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def _insertion_point(messages: Sequence[Any], at: int, format: Format) -> int:
    """After the calling message, (Responses) the call items right after it, and the run of results after them."""
    j = at + 1
    if format == "responses":
        while j < len(messages) and _calls(messages[j], format):
            j += 1
    while j < len(messages) and _result_for(messages[j], format) is not None:
        j += 1
    return j


def prepare_for_send(messages: Sequence[Any], unanswered: str, format: Format = "chat") -> list[Any]:
    """Returns the context as it should be sent: every call answered, results in call order.

    Raises:
        UnansweredCallError: with ``unanswered == "error"`` when a call has no result.
    """
    answered = {a for a in _pair(messages, format) if a is not None}
    inserts: dict[int, list[Any]] = {}
    for i, message in enumerate(messages):
        for c, (call_id, name, kind) in enumerate(_calls(message, format)):
            if (i, c) in answered:
                continue
            if unanswered == "error":
                raise UnansweredCallError(f"message {i}: call '{call_id}' ({name}) has no result at send time")
            at = _insertion_point(messages, i, format)
            inserts.setdefault(at, []).append(not_run_result(call_id, name, kind, format))
    out: list[Any] = []
    for i in range(len(messages) + 1):
        out.extend(inserts.get(i, []))
        if i < len(messages):
            out.append(messages[i])
    return _order_results(out, format)

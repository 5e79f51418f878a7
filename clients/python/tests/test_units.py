"""The pure parts, on hand-written cases: applying a patch, and the send-time order of Chat Completions tool results
(the end-to-end tests compare both with the workflow's own answers)."""

from __future__ import annotations

from typing import Any

import pytest

from durable_compaction import UnansweredCallError, apply_patch
from durable_compaction.send import prepare_for_send


def test_a_patch_copies_ranges_and_inserts_literals() -> None:
    base = ["a", "b", "c", "d"]
    patch = {"baseVersion": 1, "version": 2, "segments": [{"copy": [0, 1]}, {"insert": ["S"]}, {"copy": [2, 4]}]}
    assert apply_patch(base, patch) == ["a", "S", "c", "d"]
    with pytest.raises(IndexError, match=r"copies \[2, 5\) of 4"):
        apply_patch(base, {"segments": [{"copy": [2, 5]}]})


def call(cid: str, name: str = "f") -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": "{}"}}


def result(cid: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": cid, "content": cid}


def test_results_follow_their_calls_in_call_order() -> None:
    assistant = {"role": "assistant", "content": None, "tool_calls": [call("1"), call("2"), call("3")]}
    messages = [{"role": "user", "content": "go"}, assistant, result("3"), result("1"), result("2")]
    out = prepare_for_send(messages, "synthesize")
    assert out == [messages[0], assistant, result("1"), result("2"), result("3")]
    assert messages[2] == result("3"), "the input is not changed"


def test_a_reused_call_id_pairs_with_the_nearest_open_call() -> None:
    first = {"role": "assistant", "tool_calls": [call("x")]}
    second = {"role": "assistant", "tool_calls": [call("y"), call("x")]}
    messages = [first, result("x"), second, result("x"), result("y")]
    assert prepare_for_send(messages, "error") == [first, result("x"), second, result("y"), result("x")]


def test_unanswered_calls_get_a_not_run_result_or_an_error() -> None:
    assistant = {"role": "assistant", "tool_calls": [call("1", "lookup"), call("2", "track")]}
    messages = [assistant, result("2"), {"role": "user", "content": "never mind"}]
    out = prepare_for_send(messages, "synthesize")
    assert out[1]["tool_call_id"] == "1" and out[1]["content"].startswith("[not run] The call to lookup (1)")
    assert out[2] == result("2") and out[3] == messages[2]
    with pytest.raises(UnansweredCallError, match="call '1' \\(lookup\\) has no result"):
        prepare_for_send(messages, "error")


def test_transient_answers_are_told_from_final_ones() -> None:
    from temporalio.client import WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError
    from temporalio.exceptions import ApplicationError
    from temporalio.service import RPCError, RPCStatusCode

    from durable_compaction.retry import TryAgain, is_not_found, is_transient

    transient = [
        RPCError("connection refused", RPCStatusCode.UNAVAILABLE, b""),
        RPCError("deadline", RPCStatusCode.DEADLINE_EXCEEDED, b""),
        RPCError("Workflow Task in failed state.", RPCStatusCode.INVALID_ARGUMENT, b""),
        RPCError("Namespace default is not found.", RPCStatusCode.NOT_FOUND, b""),
        RPCError("update aborted", RPCStatusCode.FAILED_PRECONDITION, b"...WorkflowNotReadyFailure..."),
        WorkflowUpdateFailedError(ApplicationError("later", type="OutOfOrder")),
        WorkflowUpdateRPCTimeoutOrCancelledError(),
        TimeoutError(),
        TryAgain("dropped"),
    ]
    final = [
        RPCError("workflow not found for ID: conversation-x", RPCStatusCode.NOT_FOUND, b""),
        RPCError("bad request", RPCStatusCode.INVALID_ARGUMENT, b""),
        RPCError("precondition", RPCStatusCode.FAILED_PRECONDITION, b""),
        WorkflowUpdateFailedError(ApplicationError("bad message", type="InvalidAppend")),
        ValueError("a bug"),
    ]
    assert [is_transient(e) for e in transient] == [True] * len(transient)
    assert [is_transient(e) for e in final] == [False] * len(final)
    assert is_not_found(final[0]) and not is_not_found(transient[3])


def test_responses_outputs_follow_their_call_items_and_missing_ones_are_synthesized() -> None:
    def fcall(cid: str) -> dict[str, Any]:
        return {"type": "function_call", "call_id": cid, "name": "f", "arguments": "{}"}

    def output(cid: str) -> dict[str, Any]:
        return {"type": "function_call_output", "call_id": cid, "output": cid}

    shell = {"type": "local_shell_call", "call_id": "s", "action": {"command": ["ls"]}}
    user = {"role": "user", "content": "go"}
    messages = [user, fcall("a"), fcall("b"), shell, output("b"), output("a")]
    out = prepare_for_send(messages, "synthesize", "responses")
    assert out[:6] == [user, fcall("a"), fcall("b"), shell, output("a"), output("b")]
    assert out[6] == {
        "type": "local_shell_call_output",
        "call_id": "s",
        "output": "[not run] The call to local_shell_call (s) was not executed, so it has no output.",
    }

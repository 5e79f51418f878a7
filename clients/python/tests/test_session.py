"""A whole session through the Python client against the real worker: the mirror the patches build is the workflow's
context, the messages prepared for sending are what the workflow's own send-time rules give (the `sendable` query,
TypeScript), folds happen, and the archive holds every message once, in order."""

from __future__ import annotations

import json
from typing import Any

import pytest
from temporalio.client import Client

from conftest import Worker, conversation_id, export_archive
from durable_compaction import ConversationClient, UnansweredCallError

FILLER = "The shipment for this order left the warehouse on time and is tracked under its reference. "


def turn(i: int) -> dict[str, Any]:
    return {"role": "user", "content": f"Request {i}: check order {1000 + i}. " + FILLER * 6}


def tool_round(i: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An assistant message with two parallel calls, and their results in the reverse order."""
    calls = [
        {"id": f"c{i}a", "type": "function", "function": {"name": "lookup", "arguments": json.dumps({"order": i})}},
        {"id": f"c{i}b", "type": "function", "function": {"name": "track", "arguments": json.dumps({"order": i})}},
    ]
    output = {"role": "assistant", "content": None, "tool_calls": calls}
    results = [
        {"role": "tool", "tool_call_id": f"c{i}b", "content": f"tracking {i}: delivered. " + FILLER},
        {"role": "tool", "tool_call_id": f"c{i}a", "content": f"order {i}: paid. " + FILLER},
    ]
    return output, results


def counting_queries(conv: ConversationClient) -> list[str]:
    """Makes ``conv`` note the name of every query it sends. Returns the list it appends to."""
    queries: list[str] = []
    handle_of = conv._handle

    class Counting:
        def __init__(self, handle: Any) -> None:
            self._inner = handle

        def __getattr__(self, name: str) -> Any:
            return getattr(self._inner, name)

        async def query(self, name: str, *args: Any, **kwargs: Any) -> Any:
            queries.append(name)
            return await self._inner.query(name, *args, **kwargs)

    conv._handle = lambda: Counting(handle_of())  # type: ignore[method-assign]
    return queries


async def test_a_session_keeps_the_mirror_and_the_send_order(client: Client, worker: Worker) -> None:
    cid = conversation_id("session")
    conv = ConversationClient(
        client, cid, worker.task_queue, settings={"budget": 3000, "foldMode": "blocking"}, workflow_task_timeout=2
    )
    sent: list[Any] = [{"role": "system", "content": "You are a shipping assistant."}, turn(0)]
    prepared = await conv.prepare(sent)
    sizes: list[tuple[int, int]] = []
    for i in range(1, 16):
        assistant, results = tool_round(i)
        new = [*results, turn(i)]
        prepared = await conv.prepare(new, output=assistant, usage={"inputTokens": prepared.tokens})
        sent += [assistant, *new]
        context = await client.get_workflow_handle(conv.workflow_id).query("context")
        assert conv.mirror == context["messages"], f"turn {i}: the patched mirror is the workflow's context"
        sendable = await client.get_workflow_handle(conv.workflow_id).query("sendable")
        assert prepared.messages == sendable["messages"], f"turn {i}: the send order is the workflow's"
        # The results were sent in reverse call order; prepared, each follows its call in call order.
        at = next(k for k, m in enumerate(prepared.messages) if m.get("tool_calls") and m["tool_calls"][0]["id"] == f"c{i}a")
        assert [m.get("tool_call_id") for m in prepared.messages[at + 1 : at + 3]] == [f"c{i}a", f"c{i}b"]
        assert prepared.tokens <= prepared.budget
        # The update's answer is a patch: bounded by this turn's messages (and a summary), not by the context.
        answer, whole = len(json.dumps(prepared.raw)), len(json.dumps(context["messages"]))
        assert answer < 1500 + len(json.dumps(new)), f"turn {i}: answer of {answer} bytes for a {whole}-byte context"
        sizes.append((answer, whole))
    assert sum(a for a, _ in sizes) < sum(w for _, w in sizes) / 4, sizes
    folds = await conv.folds()
    assert len(folds) >= 1 and all(f["ok"] for f in folds), folds
    state = await conv.state()
    assert state["folds"] == len(folds)
    assert (await client.get_workflow_handle(conv.workflow_id).query("writerSeq", conv.writer_id)) == 15
    archived = export_archive(worker, cid)["archive"]["messages"]
    assert [m["message"] for m in archived] == sent, "every message archived once, in order"
    await conv.close()


async def test_two_writers_interleaved_each_store_once(client: Client, worker: Worker) -> None:
    cid = conversation_id("writers")
    a = ConversationClient(client, cid, worker.task_queue, writer_id="writer-a")
    b = ConversationClient(client, cid, worker.task_queue, writer_id="writer-b")
    sent: list[Any] = []
    for i in range(6):
        conv = a if i % 2 == 0 else b
        message = {"role": "user", "content": f"note {i} from {conv.writer_id}"}
        prepared = await conv.prepare([message])
        sent.append(message)
        # The other writer's append moved the context on: the mirror was stale and was read again.
        assert prepared.messages == sent
    assert (await client.get_workflow_handle(a.workflow_id).query("writerSeq", "writer-a")) == 2
    assert (await client.get_workflow_handle(a.workflow_id).query("writerSeq", "writer-b")) == 2
    assert [m["message"] for m in export_archive(worker, cid)["archive"]["messages"]] == sent


async def test_record_rewind_clear_configure_wait(client: Client, worker: Worker) -> None:
    conv = ConversationClient(client, conversation_id("calls"), worker.task_queue)
    system = {"role": "system", "content": "Be brief."}
    await conv.prepare([system, {"role": "user", "content": "hello"}])
    await conv.record({"role": "assistant", "content": "hi there"})
    context = await conv.context()
    assert context["messages"][-1] == {"role": "assistant", "content": "hi there"}
    prepared = await conv.prepare([{"role": "user", "content": "again"}])
    rewound = await conv.rewind(expected_version=prepared.version)
    assert rewound["removed"] == [{"role": "user", "content": "again"}]
    assert conv.mirror == (await conv.context())["messages"]
    settings = await conv.configure({"triggerRatio": 0.8})
    assert settings["triggerRatio"] == 0.8
    waited = await conv.wait_for_fold(timeout_ms=1000)
    assert waited == {"folding": None, "lastFold": None}
    await conv.clear()
    assert conv.mirror == [system]
    assert (await conv.prepare([{"role": "user", "content": "after clear"}])).messages == [
        system,
        {"role": "user", "content": "after clear"},
    ]
    await conv.close()


async def test_tools_are_counted_and_sent_only_when_they_change(client: Client, worker: Worker) -> None:
    conv = ConversationClient(client, conversation_id("tools"), worker.task_queue)
    tools = [{"type": "function", "function": {"name": "track", "description": "Track an order. " * 20, "parameters": {}}}]
    without = await conv.prepare([{"role": "user", "content": "hello"}])
    first = await conv.prepare([{"role": "user", "content": "one"}], tools=tools)
    await conv.prepare([{"role": "user", "content": "two"}], tools=tools)
    assert (await conv.state())["settings"]["tools"] == tools
    assert first.tokens > without.tokens + 100, "the tool definitions count into the context's tokens"
    history = await client.get_workflow_handle(conv.workflow_id).fetch_history()
    inputs = [
        json.loads(e.workflow_execution_update_accepted_event_attributes.accepted_request.input.args.payloads[0].data)
        for e in history.events
        if e.HasField("workflow_execution_update_accepted_event_attributes")
    ]
    assert [("tools" in i) for i in inputs] == [False, True, False], "sent with the call that changed them only"


async def test_a_responses_session_is_sent_as_the_workflow_sends_it(client: Client, worker: Worker) -> None:
    conv = ConversationClient(client, conversation_id("responses"), worker.task_queue, format="responses")
    prepared = await conv.prepare([{"role": "developer", "content": "Track orders."}, turn(0)])
    for i in range(1, 6):
        calls = [
            {"type": "function_call", "call_id": f"r{i}a", "name": "lookup", "arguments": "{}"},
            {"type": "function_call", "call_id": f"r{i}b", "name": "track", "arguments": "{}"},
        ]
        # Results in reverse call order; on odd turns the second call is left unanswered.
        outputs = [{"type": "function_call_output", "call_id": f"r{i}b", "output": f"tracked {i}"}] if i % 2 == 0 else []
        outputs.append({"type": "function_call_output", "call_id": f"r{i}a", "output": f"found {i}"})
        prepared = await conv.prepare([*outputs, turn(i)], output=calls)
        sendable = await client.get_workflow_handle(conv.workflow_id).query("sendable")
        assert prepared.messages == sendable["messages"], f"turn {i}: sent as the workflow sends it"
    assert any(str(m.get("output", "")).startswith("[not run]") for m in prepared.messages)
    assert (await conv.state())["format"] == "responses"


async def test_a_step_reads_no_state_and_sees_settings_changed_elsewhere(client: Client, worker: Worker) -> None:
    """The format and ``unanswered`` setting come with every ``prepare`` result: a chat step sends no query, and a
    setting another client changed applies at this client's next step."""
    cid = conversation_id("no-queries")
    conv = ConversationClient(client, cid, worker.task_queue)
    queries = counting_queries(conv)
    lookup = {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    call = {"role": "assistant", "content": None, "tool_calls": [lookup]}
    await conv.prepare([{"role": "user", "content": "hi"}])
    prepared = await conv.prepare([call], output={"role": "assistant", "content": "hello"})
    assert queries == []
    assert prepared.messages[-1].get("tool_call_id") == "c1", "the unanswered call gets a synthesized result"
    await ConversationClient(client, cid, worker.task_queue).configure({"unanswered": "error"})
    again = {**call, "tool_calls": [{**lookup, "id": "c2"}]}
    with pytest.raises(UnansweredCallError):
        await conv.prepare([{"role": "tool", "tool_call_id": "c1", "content": "found"}, again])


async def test_an_anthropic_step_with_every_call_answered_reads_nothing(client: Client, worker: Worker) -> None:
    """In a format the client has no send rules for, a step whose context needs no send-time change sends the mirror
    (the result says ``sendAsIs``); one with a call left open reads the workflow's ``sendable`` query."""
    conv = ConversationClient(client, conversation_id("anthropic-as-is"), worker.task_queue, format="anthropic")
    queries = counting_queries(conv)

    def use(call_id: str) -> dict[str, Any]:
        block = {"type": "tool_use", "id": call_id, "name": "lookup", "input": {"order": 7}}
        return {"role": "assistant", "content": [block]}

    answer = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu1", "content": "order 7: paid"}]}
    await conv.prepare([{"role": "user", "content": "Look up order 7."}])
    prepared = await conv.prepare([answer], output=use("tu1"))
    assert queries == []
    assert prepared.raw.get("sendAsIs") is True
    sendable = await client.get_workflow_handle(conv.workflow_id).query("sendable")
    assert prepared.messages == sendable["messages"] == conv.mirror
    pending = await conv.prepare([], output=use("tu2"))
    assert queries == ["sendable"], "a call left open is answered by the workflow's rules"
    assert "sendAsIs" not in pending.raw
    last = pending.messages[-1]
    assert last["role"] == "user" and last["content"][0]["tool_use_id"] == "tu2", "a synthesized result for tu2"

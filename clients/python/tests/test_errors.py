"""Errors say whether the messages were stored, with the TypeScript client's names and failure types; bad input is
refused before anything is sent where the client can tell, and changes nothing stored where the workflow tells."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.service import RPCError, RPCStatusCode

from conftest import ROOT, Worker, conversation_id
from durable_compaction import (
    PROTOCOL_VERSION,
    ConversationClient,
    ConversationClosedError,
    ConversationUpdateError,
    InvalidConversationId,
    SettingsError,
    UnansweredCallError,
)


def test_the_protocol_version_is_the_schema_s() -> None:
    schema = json.loads((ROOT / "schema" / "protocol.schema.json").read_text())
    assert schema["definitions"]["ConversationProtocol"]["properties"]["protocol"]["const"] == PROTOCOL_VERSION


@pytest.mark.parametrize("bad", ["", "x" * 201, "grüße", ".hidden", "a b"])
def test_bad_conversation_ids_are_refused_before_sending(client: Client, bad: str) -> None:
    with pytest.raises(InvalidConversationId):
        ConversationClient(client, bad, "q")


def test_bad_writer_ids_settings_and_formats_are_refused(client: Client) -> None:
    with pytest.raises(InvalidConversationId, match="writerId"):
        ConversationClient(client, "ok", "q", writer_id="has space")
    with pytest.raises(SettingsError, match="settings must be a mapping"):
        ConversationClient(client, "ok", "q", settings=[("budget", 1)])  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="format must be one of"):
        ConversationClient(client, "ok", "q", format="klingon")


async def test_a_refused_append_stores_nothing_and_frees_its_number(client: Client, worker: Worker) -> None:
    conv = ConversationClient(client, conversation_id("refused"), worker.task_queue)
    await conv.prepare([{"role": "user", "content": "first"}])
    with pytest.raises(ConversationUpdateError) as refused:
        await conv.prepare([{"role": "user", "content": 42}])
    assert refused.value.type == "InvalidAppend" and refused.value.stored is False
    assert "content" in str(refused.value)
    prepared = await conv.prepare([{"role": "user", "content": "second"}])
    assert [m["content"] for m in prepared.messages] == ["first", "second"]
    handle = client.get_workflow_handle(conv.workflow_id)
    assert await handle.query("writerSeq", conv.writer_id) == 1, "the refused append's number was used again"


async def test_an_oversized_append_is_refused_before_anything_is_sent(client: Client, worker: Worker) -> None:
    conv = ConversationClient(client, conversation_id("oversized"), worker.task_queue)
    with pytest.raises(ConversationUpdateError) as refused:
        await conv.prepare([{"role": "user", "content": "x" * 2_100_000}])
    assert refused.value.type == "InvalidAppend" and refused.value.stored is False
    assert "over the 2064384-byte limit" in str(refused.value)
    with pytest.raises(RPCError) as missing:
        await client.get_workflow_handle(conv.workflow_id).describe()
    assert missing.value.status == RPCStatusCode.NOT_FOUND, "no workflow was started"


async def test_settings_and_version_refusals_are_typed(client: Client, worker: Worker) -> None:
    conv = ConversationClient(client, conversation_id("typed"), worker.task_queue)
    prepared = await conv.prepare([{"role": "user", "content": "hello"}])
    with pytest.raises(ConversationUpdateError) as bad:
        await conv.configure({"budgt": 1000})
    assert bad.value.type == "InvalidSettings" and "did you mean" in str(bad.value)
    with pytest.raises(ConversationUpdateError) as moved:
        await conv.rewind(expected_version=prepared.version + 5)
    assert moved.value.type == "VersionMismatch"
    assert conv.mirror == [{"role": "user", "content": "hello"}], "nothing changed"


async def test_a_closed_conversation_is_closed_on_every_path(client: Client, worker: Worker) -> None:
    cid = conversation_id("closed")
    conv = ConversationClient(client, cid, worker.task_queue)
    await conv.prepare([{"role": "user", "content": "bye"}])
    await conv.close()
    handle = client.get_workflow_handle(conv.workflow_id)
    for _ in range(100):
        if (await handle.describe()).status == WorkflowExecutionStatus.COMPLETED:
            break
        await asyncio.sleep(0.1)
    # The same client (it saw the conversation) and a new one (update-with-start): both told it is closed.
    for caller in (conv, ConversationClient(client, cid, worker.task_queue)):
        with pytest.raises(ConversationClosedError) as closed:
            await caller.prepare([{"role": "user", "content": "again"}])
        assert closed.value.type == "ConversationClosed" and closed.value.stored is False


async def test_bad_settings_fail_the_first_call_and_leave_the_id_free(client: Client, worker: Worker) -> None:
    cid = conversation_id("bad-settings")
    conv = ConversationClient(client, cid, worker.task_queue, settings={"budget": -5}, retry_deadline=15)
    with pytest.raises(ConversationUpdateError) as refused:
        await conv.prepare([{"role": "user", "content": "hello"}])
    assert refused.value.type == "InvalidStart" and refused.value.stored is False
    assert "budget must be an integer from 256 to 1000000, got -5" in str(refused.value)
    fixed = ConversationClient(client, cid, worker.task_queue, settings={"budget": 4000})
    prepared = await fixed.prepare([{"role": "user", "content": "hello"}])
    assert prepared.budget == 4000 and prepared.messages == [{"role": "user", "content": "hello"}]


async def test_an_unanswered_call_with_policy_error_is_stored_but_not_sendable(client: Client, worker: Worker) -> None:
    conv = ConversationClient(client, conversation_id("unanswered"), worker.task_queue, settings={"unanswered": "error"})
    call = {"id": "c1", "type": "function", "function": {"name": "track", "arguments": "{}"}}
    assistant = {"role": "assistant", "content": None, "tool_calls": [call]}
    with pytest.raises(UnansweredCallError, match=r"call 'c1' \(track\) has no result at send time"):
        await conv.prepare([{"role": "user", "content": "where is it?"}], output=None)
        await conv.prepare([], output=assistant)
    assert (await conv.context())["messages"][-1] == assistant, "stored all the same"
    result = {"role": "tool", "tool_call_id": "c1", "content": "in transit"}
    prepared = await conv.prepare([result])
    assert prepared.messages[-2:] == [assistant, result]

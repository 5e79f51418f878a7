"""A worker SIGKILLed in the middle of a session: the client rides it out (retries within its deadline, same update
id and writer number), and the archive export afterwards holds every message once, in order: nothing lost, nothing
stored twice. And a call whose outcome could not be learned (no worker to answer, not even the writerSeq query)
fails with stored "unknown"; made again once a worker is back, its messages are stored once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from temporalio.client import Client

from conftest import Worker, conversation_id, export_archive
from durable_compaction import ConversationClient, ConversationRunEnded, ConversationUnavailableError

FILLER = "Please check the shipping status of this order and report back with the tracking reference. "


def turn(i: int) -> dict[str, Any]:
    return {"role": "user", "content": f"Request {i}: order {1000 + i}. " + FILLER * 5}


async def test_sigkill_mid_session_loses_nothing_and_doubles_nothing(
    client: Client, start_worker: Callable[..., Worker]
) -> None:
    worker = start_worker()
    cid = conversation_id("crash")
    conv = ConversationClient(
        client, cid, worker.task_queue, settings={"budget": 2500}, workflow_task_timeout=2, retry_deadline=120
    )
    sent: list[Any] = []
    crashes = 0
    for i in range(24):
        message = turn(i)
        call = asyncio.create_task(conv.prepare([message]))
        if i % 6 == 3:
            # Killed while the call is on its way: the append may or may not have been applied.
            await asyncio.sleep(0.05 * (i % 4))
            worker.kill()
            crashes += 1
            await asyncio.sleep(1.0)
            await asyncio.to_thread(start_worker, worker)
        prepared = await call
        sent.append(message)
        assert prepared.messages[-1] == message
        assert conv.mirror == (await conv.context())["messages"]
    assert crashes == 4
    exported = export_archive(worker, cid)["archive"]
    assert [m["message"] for m in exported["messages"]] == sent, "each message archived once, in order"
    assert [m["seq"] for m in exported["messages"]] == list(range(len(sent)))
    assert (await client.get_workflow_handle(conv.workflow_id).query("writerSeq", conv.writer_id)) == len(sent) - 1
    folds = await conv.folds()
    assert len(folds) >= 1, "the session folded across the crashes"
    assert [f["number"] for f in folds] == list(range(1, len(folds) + 1)), "no fold applied twice"


async def test_unknown_outcome_made_again_is_stored_once(client: Client, start_worker: Callable[..., Worker]) -> None:
    worker = start_worker()
    cid = conversation_id("unknown")
    conv = ConversationClient(client, cid, worker.task_queue, retry_deadline=3, workflow_task_timeout=2)
    await conv.prepare([turn(0)])
    worker.kill()
    doubtful = [turn(1)]
    try:
        await conv.prepare(doubtful)
        raise AssertionError("no worker answered, yet prepare returned")
    except ConversationUnavailableError as err:
        assert err.stored == "unknown", err
    # Another call first settles the doubtful one; no worker answers, so it fails having sent nothing of its own.
    try:
        await conv.prepare([turn(2)])
        raise AssertionError("no worker answered, yet prepare returned")
    except ConversationUnavailableError as err:
        assert err.stored is False and "settling append 1" in str(err), err
    start_worker(worker)
    prepared = await conv_again(conv, doubtful)
    assert [m["content"] for m in prepared.messages] == [turn(0)["content"], turn(1)["content"]]
    assert [m["message"] for m in export_archive(worker, cid)["archive"]["messages"]] == [turn(0), turn(1)]


async def conv_again(conv: ConversationClient, messages: list[Any]) -> Any:
    """The same call again, retried until the restarted worker answers within the client's short deadline."""
    for _ in range(20):
        try:
            return await conv.prepare(messages)
        except ConversationUnavailableError:
            await asyncio.sleep(1)
    raise AssertionError("the restarted worker never answered")


async def test_a_run_terminated_while_a_call_is_retried_is_not_started_again(
    client: Client, start_worker: Callable[..., Worker]
) -> None:
    worker = start_worker()
    conv = ConversationClient(client, conversation_id("terminated"), worker.task_queue, workflow_task_timeout=2)
    await conv.prepare([turn(0)])
    worker.kill()
    call = asyncio.create_task(conv.prepare([turn(1)]))
    await asyncio.sleep(1.5)
    await client.get_workflow_handle(conv.workflow_id).terminate("operator")
    try:
        await call
        raise AssertionError("the call returned although its run was terminated")
    except ConversationRunEnded as err:
        assert err.stored == "unknown" and "TERMINATED" in str(err)
    description = await client.get_workflow_handle(conv.workflow_id).describe()
    assert description.status is not None and description.status.name == "TERMINATED", "not started again"


async def test_every_other_call_ends_at_the_deadline_with_conversation_unavailable(
    client: Client, start_worker: Callable[..., Worker]
) -> None:
    # Reads, waits and settings updates used to raise the last transient gRPC error as it was.
    worker = start_worker()
    cid = conversation_id("deadline-reads")
    await ConversationClient(client, cid, worker.task_queue).prepare([turn(0)])
    worker.kill()
    conv = ConversationClient(client, cid, worker.task_queue, retry_deadline=1.5)
    calls: list[tuple[str, Callable[[], Awaitable[Any]], Any]] = [
        ("wait_for_fold", lambda: conv.wait_for_fold(timeout_ms=0), False),
        ("folds", conv.folds, False),
        ("state", conv.state, False),
        ("context", conv.context, False),
        ("configure", lambda: conv.configure({"budget": 9000}), "unknown"),
        ("clear", conv.clear, "unknown"),
        ("rewind", lambda: conv.rewind(expected_version=1), "unknown"),
        ("close", conv.close, "unknown"),
    ]
    for name, call, stored in calls:
        try:
            await call()
            raise AssertionError(f"{name}: no worker answered, yet it returned")
        except ConversationUnavailableError as err:
            assert err.stored == stored, (name, err)

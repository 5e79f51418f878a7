"""The agent loop of docs/client.md ("Using it from Python"), as a function the tests run (tests/test_docs_example.py).
``call_model`` sends the messages to the model and returns its Chat Completions response as JSON (with the openai
SDK: ``(await openai.chat.completions.create(model="gpt-4o", messages=messages)).model_dump()``); ``run_tools``
returns the tool results for the reply, or the user's next message."""

from collections.abc import Awaitable, Callable
from typing import Any

from temporalio.client import Client

from durable_compaction import ConversationClient


async def agent_loop(
    client: Client,
    call_model: Callable[[list[Any]], Awaitable[dict[str, Any]]],
    run_tools: Callable[[dict[str, Any]], Awaitable[list[Any]]],
    new_messages: list[Any],
    steps: int,
) -> ConversationClient:
    conv = ConversationClient(
        client,
        "ticket-4711",
        "durable-compaction",
        settings={"model": "gpt-4o", "budget": 128_000},  # used when this call creates the conversation
    )
    usage = output = None
    for _ in range(steps):
        # One round trip per step: the model's last output and the new messages in, the context to send out.
        prepared = await conv.prepare(new_messages, output=output, usage=usage)
        reply = await call_model(prepared.messages)
        usage = {"inputTokens": reply["usage"]["prompt_tokens"]}  # calibrates the next estimate
        output = reply["choices"][0]["message"]  # joins the conversation with the next prepare
        new_messages = await run_tools(reply)  # tool results, or the user's next message
    await conv.record(output)  # the last answer, stored before the loop ends
    return conv

"""The Python agent loop of docs/client.md is examples/agent_loop.py, verbatim, and it runs: against the real worker,
with a model that answers in Chat Completions JSON (tool calls, then an answer), every message is archived once."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from temporalio.client import Client

from conftest import ROOT, Worker, export_archive

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from agent_loop import agent_loop  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "agent_loop.py"


def test_the_docs_show_the_example_verbatim() -> None:
    docs = (ROOT / "docs" / "client.md").read_text()
    code = EXAMPLE.read_text()
    body = code[code.index("from collections.abc") :]
    assert f"```python\n{body}```" in docs


async def test_the_example_runs_against_the_worker(client: Client, start_worker: Callable[..., Worker]) -> None:
    worker = start_worker(task_queue="durable-compaction")
    seen: list[list[Any]] = []
    sent: list[Any] = [{"role": "user", "content": "Where is order 1001?"}]

    async def call_model(messages: list[Any]) -> dict[str, Any]:
        seen.append(messages)
        step = len(seen)
        if step % 2 == 1:
            call = {"id": f"call-{step}", "type": "function", "function": {"name": "track", "arguments": "{}"}}
            message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
        else:
            message = {"role": "assistant", "content": f"Order 1001 is on its way (step {step})."}
        sent.append(message)
        return {"choices": [{"message": message}], "usage": {"prompt_tokens": 40 * step}}

    async def run_tools(reply: dict[str, Any]) -> list[Any]:
        message = reply["choices"][0]["message"]
        if message.get("tool_calls"):
            out = [{"role": "tool", "tool_call_id": c["id"], "content": json.dumps({"status": "in transit"})}
                   for c in message["tool_calls"]]
        else:
            out = [{"role": "user", "content": f"Thanks. And order {1000 + len(seen)}?"}]
        sent.extend(out)
        return out

    conv = await agent_loop(client, call_model, run_tools, [sent[0]], steps=6)
    assert len(seen) == 6
    # Each step sent the whole conversation so far (no fold at this budget), in order.
    for k, messages in enumerate(seen):
        assert messages == sent[: len(messages)] and messages[-1]["role"] in ("user", "tool"), k
    archived = [m["message"] for m in export_archive(worker, conv.conversation_id)["archive"]["messages"]]
    # Everything but the user's last message, which the loop ended before sending; the last answer was recorded.
    assert archived == sent[:-1]

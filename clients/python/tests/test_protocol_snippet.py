"""The raw-SDK Python snippet of docs/protocol.md runs against the real worker as written, with only the server
address, conversation id and task queue put to this test's."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from temporalio.client import Client

from conftest import ROOT, Worker, conversation_id


def snippet() -> str:
    docs = (ROOT / "docs" / "protocol.md").read_text()
    found = re.search(r"```python\n(# Python \(temporalio SDK\)\n.*?)```", docs, re.DOTALL)
    assert found, "docs/protocol.md has its Python snippet"
    return found.group(1)


async def test_the_protocol_snippet_runs(dev_server: str, client: Client, worker: Worker) -> None:
    cid = conversation_id("snippet")
    code = (
        snippet()
        .replace('"127.0.0.1:7233"', repr(dev_server))
        .replace("ticket-4711", cid)
        .replace('"durable-compaction"', repr(worker.task_queue))
    )
    assert code.count(cid) == 3 and repr(dev_server) in code and repr(worker.task_queue) in code
    scope: dict[str, Any] = {}
    exec("async def run():\n" + textwrap.indent(code, "    ") + "\n    return result, context", scope)
    result, context = await scope["run"]()
    assert result["appended"] == 1 and result["patch"]["segments"] == [{"copy": [0, 1]}]
    assert context["messages"] == [{"role": "user", "content": "hi"}]
    state = await client.get_workflow_handle(f"conversation-{cid}").query("state")
    assert state["budget"] == 128000

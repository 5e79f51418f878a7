"""What the tests run against: a real Temporal dev server (the repository's .tools/temporal) and real worker processes
(test/support/worker-process.ts, the production worker's activities and data converter, SQLite archive), started
once per session; crash tests start and SIGKILL their own workers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from temporalio.client import Client

ROOT = Path(__file__).resolve().parents[3]
NODE = os.environ.get("NODE", "node")
SEARCH_ATTRIBUTES = ["ConversationTokens=Int", "ConversationFolds=Int", "ConversationBudget=Int", "ConversationState=Keyword"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_node(script: str, *args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> str:
    """Runs a TypeScript file of the repository with node (tsx) and returns its stdout."""
    done = subprocess.run(
        [NODE, "--require", "tsx/cjs", script, *args],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{script} exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


@pytest.fixture(scope="session")
def dev_server() -> Iterator[str]:
    """A Temporal dev server (in memory) with the conversation search attributes; yields its address."""
    cli = os.environ.get("TEMPORAL_CLI_PATH", str(ROOT / ".tools" / "temporal"))
    port = free_port()
    args = [cli, "server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", str(port),
            "--http-port", str(free_port()), "--metrics-port", str(free_port()), "--log-level", "error",
            "--dynamic-config-value", "frontend.enableExecuteMultiOperation=true"]
    for attribute in SEARCH_ATTRIBUTES:
        args += ["--search-attribute", attribute]
    server = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the Temporal dev server did not start on {address}")
                time.sleep(0.2)
        yield address
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="session")
def workflow_bundle(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The project's workflows bundled once, so a restarted worker polls within a second or two."""
    out = tmp_path_factory.mktemp("bundle")
    code = "require('./test/support/crash').writeWorkflowBundle(process.argv[1]).then((p) => console.log(p))"
    done = subprocess.run([NODE, "--require", "tsx/cjs", "-e", code, str(out)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"bundling the workflows failed: {done.stderr[-2000:]}")
    return done.stdout.strip().splitlines()[-1]


@dataclass
class Worker:
    """A worker process on one task queue with one SQLite archive."""

    task_queue: str
    archive_path: str
    env: dict[str, str]
    process: subprocess.Popen[str] | None = None
    log: list[str] = field(default_factory=list)

    def kill(self) -> None:
        """SIGKILL, and wait until it is gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


WorkerFactory = Callable[..., Worker]


@pytest.fixture(scope="session")
def start_worker(dev_server: str, workflow_bundle: str) -> Iterator[Callable[..., Worker]]:
    """Starts (or restarts) a worker: ``start_worker()`` for a new task queue and archive, ``start_worker(worker)``
    to start a killed one again on the same queue and archive; returns once it polls."""
    started: list[Worker] = []

    def start(again: Worker | None = None, env: dict[str, str] | None = None, task_queue: str | None = None) -> Worker:
        if again is None:
            folder = tempfile.mkdtemp(prefix="dc-py-")
            queue = task_queue or f"py-{uuid.uuid4().hex[:12]}"
            again = Worker(queue, os.path.join(folder, "archive.sqlite"), dict(env or {}))
            started.append(again)
        process = subprocess.Popen(
            [NODE, "--require", "tsx/cjs", "test/support/worker-process.ts"],
            cwd=ROOT,
            env={**os.environ, **again.env, "TEMPORAL_ADDRESS": dev_server, "TASK_QUEUE": again.task_queue,
                 "ARCHIVE_DRIVER": "sqlite", "ARCHIVE_PATH": again.archive_path, "WORKFLOW_BUNDLE": workflow_bundle},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        ready = threading.Event()

        def read() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                again.log.append(line)
                if "worker ready" in line:
                    ready.set()

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + 180
        while not ready.wait(0.2):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not start: {''.join(again.log)[-2000:]}")
        again.process = process
        return again

    yield start
    for worker in started:
        worker.kill()


@pytest.fixture(scope="session")
def worker(start_worker: Callable[..., Worker]) -> Worker:
    """One worker the tests that do not crash it share."""
    return start_worker()


@pytest.fixture(scope="session")
async def client(dev_server: str) -> AsyncIterator[Client]:
    yield await Client.connect(dev_server)


def export_archive(worker: Worker, conversation_id: str) -> dict[str, Any]:
    """The conversation's archive as ``durable-compaction export --archive-only`` prints it."""
    out = run_node("src/cli/main.ts", "export", "--conversation", conversation_id, "--archive-only",
                   env={"ARCHIVE_DRIVER": "sqlite", "ARCHIVE_PATH": worker.archive_path})
    return json.loads(out)  # type: ignore[no-any-return]


def conversation_id(what: str) -> str:
    return f"py-{what}-{uuid.uuid4().hex[:10]}"

"""Riding out crashes: the answers a Temporal server gives while a worker is down or replaying are transient, and the
call is tried again with back-off until a deadline. The same classification as src/client/retry.ts."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from temporalio.client import WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError
from temporalio.exceptions import ApplicationError
from temporalio.service import RPCError, RPCStatusCode

T = TypeVar("T")

#: DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, UNAVAILABLE.
_TRANSIENT_CODES = {
    RPCStatusCode.DEADLINE_EXCEEDED,
    RPCStatusCode.RESOURCE_EXHAUSTED,
    RPCStatusCode.ABORTED,
    RPCStatusCode.UNAVAILABLE,
}
# "Namespace X is not found." is the history service's answer while Temporal's database restarts; an update aborted
# "due to unexpected workflow task failure" was lost with its workflow task (sent again, it is stored once).
_TRANSIENT_MESSAGES = re.compile(
    r"workflow task in failed state|context deadline exceeded|workflow is busy|unavailable"
    r"|^namespace \S+ is not found\.$|due to unexpected workflow task failure",
    re.IGNORECASE,
)
_UPDATE_DROPPED = re.compile(r"unexpected workflow task failure", re.IGNORECASE)
_NOT_READY_DETAIL = b"WorkflowNotReadyFailure"


class TryAgain(Exception):
    """An answer the client itself knows to be transient (the server no longer holds an update it had been sent)."""


def _is_dropped_update(err: RPCError) -> bool:
    if err.status != RPCStatusCode.FAILED_PRECONDITION:
        return False
    return bool(_UPDATE_DROPPED.search(err.message)) or _NOT_READY_DETAIL in (err.raw_grpc_status or b"")


def is_transient(err: BaseException) -> bool:
    """Returns True for a server answer worth retrying with the same writer sequence number."""
    if isinstance(err, TryAgain):
        return True
    # An update that ran and failed is final, except OutOfOrder (an earlier append of this writer is on its way).
    if isinstance(err, WorkflowUpdateFailedError):
        cause = err.cause
        return isinstance(cause, ApplicationError) and cause.type == "OutOfOrder"
    if isinstance(err, (WorkflowUpdateRPCTimeoutOrCancelledError, asyncio.TimeoutError, TimeoutError)):
        return True
    e: BaseException | None = err
    for _ in range(8):
        if e is None:
            break
        if isinstance(e, RPCError):
            if _is_dropped_update(e) or e.status in _TRANSIENT_CODES:
                return True
            if _TRANSIENT_MESSAGES.search(e.message):
                return True
        elif _TRANSIENT_MESSAGES.search(str(e)):
            return True
        e = e.__cause__
    return False


def is_not_found(err: BaseException) -> bool:
    """Returns True for the server's "workflow (or update) not found" (not a namespace cache miss, which is
    transient)."""
    return isinstance(err, RPCError) and err.status == RPCStatusCode.NOT_FOUND and not is_transient(err)


async def retry_transient(
    fn: Callable[[], Awaitable[T]],
    deadline: float,
    initial_delay: float = 0.1,
    max_delay: float = 2.0,
) -> T:
    """Calls ``fn`` until it succeeds, fails with a non-transient error, or ``deadline`` (``time.monotonic()``
    seconds) passes. Each attempt is bounded by the deadline (an update no worker completes is otherwise polled for
    its outcome with no end); an attempt is made even when the deadline has passed.

    Returns:
        what ``fn`` returns.
    Raises:
        the last error (``asyncio.TimeoutError`` when the last attempt ran out of time).
    """
    delay = initial_delay
    while True:
        try:
            async with asyncio.timeout(max(deadline - time.monotonic(), 0.001)):
                return await fn()
        except Exception as err:  # noqa: BLE001 - classified below, re-raised when final
            left = deadline - time.monotonic()
            if not is_transient(err) or left <= 0:
                raise
            # Full jitter keeps many clients of one restarted worker from retrying in step.
            await asyncio.sleep(min(left, delay * (0.5 + random.random() / 2)))
            delay = min(max_delay, delay * 2)

"""``ConversationClient``: the typed, async front of one conversation for Python, with the TypeScript client's
contract (src/client/conversation-client.ts, docs/client.md): a mirror of the live context that the small patches
``prepare`` returns are applied to, per-writer sequence numbers reused on retry, an unknown outcome settled by sending
the same append again (or learned through the ``writerSeq`` query), retries of transient answers within a deadline,
and errors that say whether the messages were stored."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Literal, TypeVar

from temporalio.client import (
    Client,
    WithStartWorkflowOperation,
    WorkflowExecutionStatus,
    WorkflowHandle,
    WorkflowUpdateFailedError,
)
from temporalio.common import (
    SearchAttributeKey,
    SearchAttributePair,
    TypedSearchAttributes,
    WorkflowIDConflictPolicy,
    WorkflowIDReusePolicy,
)
from temporalio.exceptions import ApplicationError, WorkflowAlreadyStartedError

from .errors import (
    ConversationClosedError,
    ConversationRunEnded,
    ConversationUnavailableError,
    ConversationUpdateError,
    InvalidConversationId,
    SettingsError,
    Stored,
)
from .patch import apply_patch
from .protocol import (
    MAX_FOLD_WAIT_MS,
    MAX_UPDATE_INPUT_BYTES,
    MESSAGE_FORMATS,
    PROTOCOL_VERSION,
    WORKFLOW_TYPE,
    WRITER_ID,
    conversation_id_problem,
    conversation_workflow_id,
    json_bytes,
)
from .retry import TryAgain, is_not_found, is_transient, retry_transient
from .send import prepare_for_send

T = TypeVar("T")

#: How long past the retry deadline a call may take to learn whether an append that ran out of time landed, or for
#: the reads after a stored call.
ASK_AFTER_DEADLINE = 3.0
#: The budget a conversation gets when its settings name none (``defaultSettings.budget``), for its search attribute.
_DEFAULT_BUDGET = 128_000


@dataclass
class Prepared:
    """What ``prepare`` returns: the messages to send and how the context got there."""

    messages: list[Any]
    version: int
    tokens: int
    budget: int
    decision: str
    #: Set when this call folded (or tried to).
    fold: dict[str, Any] | None = None
    #: The fold in flight after this call (summarized in the background), when there is one.
    folding: dict[str, Any] | None = None
    #: How much of ``messages`` repeats the previous ``prepare``'s context as a prefix.
    prefix: dict[str, Any] | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class _PendingAppend:
    """An append as sent: re-sent as is (update id, number, input) while its outcome is in doubt."""

    seq: int
    call: str
    update: str
    input: dict[str, Any]
    update_id: str


class ConversationClient:
    """One conversation. The first call starts its workflow (update-with-start, conflict policy use-existing).

    Args:
        client: a connected ``temporalio.client.Client`` (with ``encrypting_data_converter`` when the worker
            encrypts payloads).
        conversation_id: 1–200 ASCII letters, digits and ``. _ - : @``, not starting with a dot.
        task_queue: the worker's task queue.
        settings: settings of a conversation this client creates (ignored when it exists); checked by the workflow.
        limits: run limits of a conversation this client creates.
        format: wire format of a conversation this client creates. Default: detected from the first messages.
        retry_deadline: seconds a call keeps retrying transient answers before ``ConversationUnavailableError``.
            Default 120.
        writer_id: this client's writer id (letters, digits, ``. _ : @ -``). Default: a random UUID per instance.
        workflow_task_timeout: workflow task timeout, seconds, of a conversation this client creates. Default: the
            server's (10 s).
        search_attributes: start the conversation with its search attributes (the namespace must know them).
            Default True.

    Raises:
        InvalidConversationId: for a bad conversation id or writer id.
        SettingsError: for settings or limits that are not mappings, or an unknown format.
    """

    def __init__(
        self,
        client: Client,
        conversation_id: str,
        task_queue: str,
        *,
        settings: Mapping[str, Any] | None = None,
        limits: Mapping[str, Any] | None = None,
        format: str | None = None,
        retry_deadline: float = 120.0,
        writer_id: str | None = None,
        workflow_task_timeout: float | None = None,
        search_attributes: bool = True,
    ) -> None:
        problem = conversation_id_problem(conversation_id)
        if problem:
            raise InvalidConversationId(problem)
        self.writer_id = writer_id if writer_id is not None else str(uuid.uuid4())
        if not WRITER_ID.match(self.writer_id):
            raise InvalidConversationId("writerId must be 1-128 characters of letters, digits and . _ : @ -")
        for name, value in (("settings", settings), ("limits", limits)):
            if value is not None and not isinstance(value, Mapping):
                raise SettingsError(f"{name} must be a mapping, got {type(value).__name__}")
        if format is not None and format not in MESSAGE_FORMATS:
            raise SettingsError(f"format must be one of {', '.join(MESSAGE_FORMATS)}, got {json.dumps(format)}")
        self._client = client
        self.conversation_id = conversation_id
        self._task_queue = task_queue
        self._settings = dict(settings) if settings is not None else None
        self._limits = dict(limits) if limits is not None else None
        self._format = format
        self._retry_deadline = retry_deadline
        self._task_timeout = workflow_task_timeout
        self._search_attributes = search_attributes
        self._mirror: list[Any] = []
        # An empty mirror is the context at version 0, a new conversation's: its first call reads nothing.
        self._version = 0
        self._sent_version: int | None = None
        self._next_seq = 0
        self._in_doubt: _PendingAppend | None = None
        self._calls = 0
        self._sent_tools: str | None = None
        self._seen = False
        self._cached_settings: dict[str, Any] | None = None
        self._stored_format: str | None = None
        # Appends of one client go one at a time, so its sequence numbers arrive in order.
        self._queue = asyncio.Lock()

    @property
    def workflow_id(self) -> str:
        """The workflow id of this conversation."""
        return conversation_workflow_id(self.conversation_id)

    @property
    def mirror(self) -> list[Any]:
        """The client's copy of the live context (as the workflow holds it, before send-time normalisation)."""
        return list(self._mirror)

    def _handle(self) -> WorkflowHandle[Any, Any]:
        return self._client.get_workflow_handle(self.workflow_id)

    # ----------------------------------------------------------------------------------------------- public calls

    async def prepare(
        self,
        new_messages: Sequence[Any],
        *,
        output: Any = None,
        usage: Mapping[str, Any] | None = None,
        tools: Sequence[Any] | None = None,
    ) -> Prepared:
        """Appends the model's ``output`` (one message or a list) and ``new_messages``, folds when the budget calls
        for it, and returns the context to send now (tool results in call order; unanswered calls per the
        conversation's ``unanswered`` setting).

        Args:
            usage: the provider's usage for the previous context this client sent (``{"inputTokens": n}``).
            tools: the tool definitions sent with the request (sent to the workflow only when they changed).

        Raises:
            ConversationUpdateError: the workflow refused the call (``type``, ``stored``).
            ConversationUnavailableError: the server stayed unavailable past the deadline (``stored`` says whether
                the messages were stored; "unknown" when that could not be learned either).
        """
        deadline = self._call_deadline()
        outputs: list[Any] = [] if output is None else list(output) if isinstance(output, list) else [output]
        tools_list = list(tools) if tools is not None else None
        send_tools = tools_list if tools_list is not None and _json(tools_list) != self._sent_tools else None
        result = await self._send("prepare", [*outputs, *new_messages], deadline, usage, send_tools)
        if send_tools is not None:
            self._sent_tools = _json(send_tools)
        self._sent_version = result["version"]
        messages = await self._sendable(deadline + ASK_AFTER_DEADLINE, result)
        return Prepared(
            messages=messages,
            version=result["version"],
            tokens=result["tokens"],
            budget=result["budget"],
            decision=result["decision"],
            fold=result.get("fold"),
            folding=result.get("folding"),
            prefix=result.get("prefix"),
            raw=result,
        )

    async def record(self, messages: Any) -> None:
        """Appends the model's output (one message or a list) without deciding about a fold."""
        await self._send("append", list(messages) if isinstance(messages, list) else [messages], self._call_deadline())

    async def context(self) -> dict[str, Any]:
        """Returns the live context as the workflow holds it (``{"version", "messages", …}``); re-syncs the mirror."""
        return await self._resync()

    async def state(self) -> dict[str, Any]:
        """Returns the ``state`` query's answer (settings, tokens, folds, the fold in flight, …)."""
        return await self._retrying(lambda: self._handle().query("state"))

    async def folds(self) -> list[dict[str, Any]]:
        """Returns the recent fold records."""
        return await self._retrying(lambda: self._handle().query("folds"))

    async def wait_for_fold(self, timeout_ms: int | None = None) -> dict[str, Any]:
        """Waits until no fold is being summarized (or ``timeout_ms``, 0 to 600 000, default 600 000).

        Returns:
            ``{"folding": … | None, "lastFold": … | None}``.
        """
        arg: dict[str, Any] = {} if timeout_ms is None else {"timeoutMs": timeout_ms}
        wait = timeout_ms if isinstance(timeout_ms, int) and timeout_ms >= 0 else MAX_FOLD_WAIT_MS
        deadline = self._call_deadline() + min(wait, MAX_FOLD_WAIT_MS) / 1000
        # Waiting changes nothing, so it is retried like a read.
        return await self._typed(self._retrying(lambda: self._handle().execute_update("waitForFold", arg), deadline))

    async def rewind(self, expected_version: int | None = None) -> dict[str, Any]:
        """Removes the last round (for regenerate). With ``expected_version`` it is refused with ``VersionMismatch``
        when the context moved on, and is retried through transient failures (without it, a retry could remove a
        second round, so it is tried once).

        Returns:
            ``{"version", "removed": [...]}``.
        """
        deadline = self._call_deadline()
        arg: dict[str, Any] = {} if expected_version is None else {"expectedVersion": expected_version}
        update_id = self._update_id("rewind")

        async def call() -> Any:
            return await self._handle().execute_update("rewind", arg, id=update_id)

        if expected_version is not None:
            result = await self._typed(self._retrying(call, deadline, "unknown"))
        else:
            result = await self._typed(_bounded(call(), deadline))
        await self._after_stored(lambda: self._resync(deadline + ASK_AFTER_DEADLINE))
        return result  # type: ignore[no-any-return]

    async def clear(self) -> None:
        """Drops everything but the system messages (the archive keeps them)."""
        deadline = self._call_deadline()
        await self._typed(self._retrying(lambda: self._handle().execute_update("clear"), deadline, "unknown"))
        await self._after_stored(lambda: self._resync(deadline + ASK_AFTER_DEADLINE))

    async def configure(self, patch: Mapping[str, Any]) -> dict[str, Any]:
        """Changes settings; returns the full settings. Raises ConversationUpdateError (InvalidSettings)."""
        _refuse_oversized("configure", patch, "InvalidSettings")
        self._cached_settings = None
        return await self._typed(
            self._retrying(lambda: self._handle().execute_update("configure", dict(patch)), None, "unknown")
        )

    async def close(self) -> None:
        """Ends the conversation; its workflow completes."""
        await self._typed(self._retrying(lambda: self._handle().execute_update("close"), None, "unknown"))

    # -------------------------------------------------------------------------------------------------- plumbing

    def _call_deadline(self) -> float:
        return time.monotonic() + self._retry_deadline

    async def _retrying(
        self, fn: Callable[[], Awaitable[T]], deadline: float | None = None, stored: Stored = False
    ) -> T:
        """Runs ``fn`` through transient answers until ``deadline``.

        Raises:
            ConversationUnavailableError: the deadline passed with only transient answers; ``stored`` is what the
                caller is told (False for a read or a wait, "unknown" for an update that changes the conversation).
        """
        try:
            return await retry_transient(fn, self._call_deadline() if deadline is None else deadline)
        except Exception as err:
            if is_transient(err):
                raise self._unavailable(err, "", stored) from err
            raise

    async def _typed(self, awaitable: Awaitable[T]) -> T:
        """Update failures as ConversationUpdateError (type and ``stored``)."""
        try:
            return await awaitable
        except ConversationUpdateError:
            raise
        except WorkflowUpdateFailedError as err:
            raise ConversationUpdateError.from_update_failure(err) from err.cause

    async def _after_stored(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Runs a follow-up read of a call whose effects are stored: its failure must not look like "not stored"."""
        try:
            return await fn()
        except Exception as err:
            raise ConversationUnavailableError(
                f"the call was stored, but reading the context afterwards failed: {err}", True, err
            ) from err

    def _update_id(self, kind: str) -> str:
        self._calls += 1
        return f"{self.writer_id}:{kind}:{self._calls}"

    async def _resync(self, deadline: float | None = None) -> dict[str, Any]:
        snapshot: dict[str, Any] = await self._retrying(lambda: self._handle().query("context"), deadline)
        self._mirror = list(snapshot["messages"])
        self._version = snapshot["version"]
        return snapshot

    async def _sendable(self, deadline: float, result: Mapping[str, Any]) -> list[Any]:
        """The mirror as it should be sent. Chat and Responses contexts are normalised here (nothing crosses the
        network); every other format is read from the ``sendable`` query, which runs the workflow's own rules.

        The format and ``unanswered`` setting come with the ``prepare`` result; from a worker whose results lack them,
        from the ``state`` query. In another format the query is skipped when the result says ``sendAsIs`` (every call
        answered, results in call order).

        Raises:
            ConversationUnavailableError: (``stored`` True) when a read it needs fails.
            UnansweredCallError: with setting ``unanswered: 'error'``, for a call without a result.
        """
        if "format" in result and "unanswered" in result:
            fmt, unanswered = result["format"], str(result["unanswered"])
        else:
            # A chat conversation becomes a Responses one when Responses items (they carry `type`) arrive: read again.
            stale = self._stored_format == "chat" and any(isinstance(m, dict) and "type" in m for m in self._mirror)
            if self._cached_settings is None or self._stored_format is None or stale:
                state = await self._after_stored(
                    lambda: self._retrying(lambda: self._handle().query("state"), deadline)
                )
                self._cached_settings = state["settings"]
                self._stored_format = state.get("format")
            fmt, unanswered = self._stored_format, str(self._cached_settings.get("unanswered", "synthesize"))
        if fmt in ("chat", "responses"):
            return prepare_for_send(self._mirror, unanswered, fmt)
        if result.get("sendAsIs") is True:
            # The workflow found nothing its send rules would change: the mirror is what the query would return.
            return list(self._mirror)
        self._stored_format = None
        sendable = await self._after_stored(lambda: self._retrying(lambda: self._handle().query("sendable"), deadline))
        return list(sendable["messages"])

    async def _send(
        self,
        update: str,
        messages: list[Any],
        deadline: float,
        usage: Mapping[str, Any] | None = None,
        tools: list[Any] | None = None,
    ) -> dict[str, Any]:
        async with self._queue:
            return await self._send_now(update, messages, deadline, usage, tools)

    async def _send_now(
        self,
        update: str,
        messages: list[Any],
        deadline: float,
        usage: Mapping[str, Any] | None,
        tools: list[Any] | None,
    ) -> dict[str, Any]:
        call = f"{update}:{_json(messages)}"
        doubt = self._in_doubt
        if doubt is not None and doubt.call == call:
            # The same call again: the doubtful update itself is sent again (same update id, number and input).
            result = await self._attempt(doubt, deadline)
        else:
            if doubt is not None:
                await self._resolve_doubt(doubt, deadline)
            seq = self._next_seq
            append: dict[str, Any] = {
                "messages": messages,
                "writer": self.writer_id,
                "clientSeq": seq,
                "protocol": PROTOCOL_VERSION,
            }
            if tools is not None:
                append["tools"] = tools
            if usage is not None and self._sent_version is not None:
                append["reported"] = {"version": self._sent_version, "usage": dict(usage)}
            _refuse_oversized(update, append, "InvalidAppend")
            # Retries keep the update id (the server de-duplicates within a run) and the writer sequence number
            # (the workflow de-duplicates across runs and crashes).
            pending = _PendingAppend(seq, call, update, append, self._update_id(str(seq)))
            result = await self._attempt(pending, deadline)
        if result["patch"]["baseVersion"] == self._version:
            self._mirror = apply_patch([*self._mirror, *messages], result["patch"])
            self._version = result["version"]
        else:
            await self._after_stored(lambda: self._resync(deadline + ASK_AFTER_DEADLINE))
        return result

    async def _attempt(self, append: _PendingAppend, deadline: float) -> dict[str, Any]:
        """Sends one append (retrying transient answers until ``deadline``) and settles its number: used when
        stored, kept free when refused, in doubt (for the next call to settle) when the deadline passed."""
        attempts = 0

        async def once() -> dict[str, Any]:
            nonlocal attempts
            attempts += 1
            try:
                # Once this client saw the conversation, and for any retry, the call goes to the running
                # conversation only: one that ended meanwhile is not started again with this call.
                if self._seen or (attempts > 1 and await self._running_or_absent() == "running"):
                    return await self._to_running(append)
                return await self._update_with_start(append)
            except Exception as err:
                # A "not found" for a run that exists: the server no longer holds the update; send it again.
                if is_not_found(err):
                    raise TryAgain(f"update dropped: {err}") from err
                raise

        try:
            result = await retry_transient(once, deadline)
        except WorkflowUpdateFailedError as err:
            typed = ConversationUpdateError.from_update_failure(err)
            # A rejected append stored nothing, so its number is free for the next one; a stored one used it.
            self._next_seq = append.seq + 1 if typed.stored is True else append.seq
            self._in_doubt = None
            raise typed from err.cause
        except WorkflowAlreadyStartedError as err:
            # The workflow of a closed conversation completed; the start's reuse policy refuses to run it again.
            raise ConversationClosedError(
                f"conversation '{self.conversation_id}' is closed (its workflow completed)", err
            ) from err
        except ConversationRunEnded:
            raise
        except Exception as err:
            if not is_transient(err):
                raise
            self._in_doubt = append
            stored = await self._stored_after_all(append.seq, deadline + ASK_AFTER_DEADLINE)
            raise self._unavailable(err, "", stored) from err
        self._next_seq = append.seq + 1
        self._in_doubt = None
        self._seen = True
        return result

    async def _to_running(self, append: _PendingAppend) -> dict[str, Any]:
        try:
            result: dict[str, Any] = await self._handle().execute_update(
                append.update, append.input, id=append.update_id
            )
            return result
        except Exception as err:
            # A closed conversation: update-with-start gets the server's refusal, which names it closed.
            if is_not_found(err) and await self._running_or_absent() == "completed":
                return await self._update_with_start(append)
            raise

    async def _update_with_start(self, append: _PendingAppend) -> dict[str, Any]:
        start: dict[str, Any] = {"conversationId": self.conversation_id, "protocol": PROTOCOL_VERSION}
        if self._settings is not None:
            start["settings"] = self._settings
        if self._limits is not None:
            start["limits"] = self._limits
        if self._format is not None:
            start["format"] = self._format
        operation: WithStartWorkflowOperation[Any, Any] = WithStartWorkflowOperation(
            WORKFLOW_TYPE,
            start,
            id=self.workflow_id,
            task_queue=self._task_queue,
            id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
            # A closed conversation stays closed; only a failed start (bad start input, nothing stored) is redone.
            id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
            task_timeout=timedelta(seconds=self._task_timeout) if self._task_timeout else None,
            search_attributes=self._start_search_attributes(),
            static_summary=f"Conversation {self.conversation_id}",
        )
        try:
            result: dict[str, Any] = await self._client.execute_update_with_start_workflow(
                append.update, append.input, start_workflow_operation=operation, id=append.update_id
            )
            return result
        finally:
            # The start's outcome also lands in the operation's handle future: read it so a failed start is not
            # reported again as "exception never retrieved" (the update's error is what the caller sees).
            started = getattr(operation, "_workflow_handle", None)
            if isinstance(started, asyncio.Future) and started.done() and not started.cancelled():
                started.exception()

    def _start_search_attributes(self) -> TypedSearchAttributes | None:
        if not self._search_attributes:
            return None
        budget = (self._settings or {}).get("budget", _DEFAULT_BUDGET)
        return TypedSearchAttributes(
            [
                SearchAttributePair(SearchAttributeKey.for_int("ConversationTokens"), 0),
                SearchAttributePair(SearchAttributeKey.for_int("ConversationFolds"), 0),
                SearchAttributePair(
                    SearchAttributeKey.for_int("ConversationBudget"), budget if isinstance(budget, int) else 0
                ),
                SearchAttributePair(SearchAttributeKey.for_keyword("ConversationState"), "active"),
            ]
        )

    async def _running_or_absent(self) -> Literal["running", "absent", "completed"]:
        """Whether a retry may start the conversation: only when it does not exist yet.

        Raises:
            ConversationRunEnded: when its latest run ended otherwise (terminated, failed, timed out).
        """
        try:
            description = await self._handle().describe()
        except Exception as err:
            if is_not_found(err):
                return "absent"
            raise
        if description.status == WorkflowExecutionStatus.RUNNING:
            return "running"
        if description.status == WorkflowExecutionStatus.COMPLETED:
            return "completed"
        status = description.status.name if description.status is not None else "UNKNOWN"
        raise ConversationRunEnded(
            f"the conversation's run ended ({status}) while this call was being retried; it was not started again"
        )

    def _unavailable(self, err: BaseException, while_: str, stored: Stored) -> ConversationUnavailableError:
        why = str(err) or type(err).__name__
        return ConversationUnavailableError(
            f"the conversation stayed unavailable for {self._retry_deadline:g} s{while_}: {why}", stored, err
        )

    async def _stored_after_all(self, seq: int, until: float) -> Stored:
        """Returns True when this writer's append ``seq`` is stored, else "unknown" (asked in one short attempt)."""
        ask_for = min(ASK_AFTER_DEADLINE, self._retry_deadline)
        try:
            async with asyncio.timeout(max(min(until - time.monotonic(), ask_for), 0.001)):
                last = await self._handle().query("writerSeq", self.writer_id)
        except Exception:
            return "unknown"
        if not isinstance(last, int) or last < seq:
            return "unknown"
        self._in_doubt = None
        self._next_seq = seq + 1
        return True

    async def _resolve_doubt(self, doubt: _PendingAppend, deadline: float) -> None:
        """Settles an append whose outcome was unknown before the next one is numbered, by sending it again."""
        try:
            await self._attempt(doubt, deadline)
        except ConversationUnavailableError as err:
            raise self._unavailable(
                err.cause or err, f" (settling append {doubt.seq}, whose outcome was unknown)", False
            ) from err
        except ConversationUpdateError:
            return  # refused: nothing stored, its number is free again


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _refuse_oversized(update: str, value: Any, type: str) -> None:
    """Raises ConversationUpdateError (``stored`` False) when the JSON of ``value`` is over one update's bound."""
    size = json_bytes(value)
    if size <= MAX_UPDATE_INPUT_BYTES:
        return
    message = (
        f"{update} input is {size} bytes of JSON, over the {MAX_UPDATE_INPUT_BYTES}-byte limit of one update; "
        "nothing was sent"
    )
    raise ConversationUpdateError(type, False, ApplicationError(message, type=type, non_retryable=True))


async def _bounded(awaitable: Awaitable[T], deadline: float) -> T:
    async with asyncio.timeout(max(deadline - time.monotonic(), 0.001)):
        return await awaitable

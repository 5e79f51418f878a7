"""Errors ``ConversationClient`` raises. Each says whether the call's messages were stored (``stored``), so a caller
knows whether to send them again; the names are the TypeScript client's (src/client/errors.ts)."""

from __future__ import annotations

from typing import Literal, Union

from temporalio.client import WorkflowUpdateFailedError
from temporalio.exceptions import ApplicationError

__all__ = [
    "ConversationClosedError",
    "ConversationRunEnded",
    "ConversationUnavailableError",
    "ConversationUpdateError",
    "InvalidConversationId",
    "SettingsError",
    "Stored",
    "UnansweredCallError",
]

#: Whether a failed call's messages are in the conversation: ``"unknown"`` only when the server stayed unreachable.
Stored = Union[bool, Literal["unknown"]]


class InvalidConversationId(ValueError):
    """Raised by the constructor for an invalid conversation id or writer id; nothing was sent."""


class SettingsError(ValueError):
    """Raised by the constructor for settings, limits or a format that are not of the right shape; nothing was sent."""


class ConversationUpdateError(WorkflowUpdateFailedError):
    """The workflow refused the call. ``type`` is the documented failure type (InvalidAppend, InvalidSettings,
    InvalidStart, OutOfOrder, VersionMismatch, ConversationClosed, UnsupportedProtocol, InternalError)."""

    def __init__(self, type: str, stored: Stored, cause: BaseException, what: str | None = None) -> None:
        super().__init__(cause)
        self.type = type
        self.stored: Stored = stored
        text = what if what is not None else _message_of(cause)
        self._text = f"{type}: {text}{' (the messages were stored)' if stored is True else ''}"
        self.args = (self._text,)

    def __str__(self) -> str:
        return self._text

    @property
    def message(self) -> str:
        return self._text

    @staticmethod
    def from_update_failure(err: WorkflowUpdateFailedError) -> ConversationUpdateError:
        """Returns the update failure as a ConversationUpdateError (its ApplicationError type and ``stored`` detail)."""
        cause = err.cause
        if isinstance(cause, ApplicationError):
            if cause.type == "ConversationClosed":
                return ConversationClosedError(cause.message, cause)
            detail = cause.details[0] if cause.details else None
            stored = isinstance(detail, dict) and detail.get("stored") is True
            return ConversationUpdateError(cause.type or "Error", stored, cause)
        return ConversationUpdateError("Error", False, cause if cause is not None else err)


class ConversationClosedError(ConversationUpdateError):
    """The conversation is closed (``close`` ended it, or its workflow completed); nothing was stored. Use a new id."""

    def __init__(self, what: str, cause: BaseException) -> None:
        super().__init__("ConversationClosed", False, cause, what)


class ConversationUnavailableError(Exception):
    """The server or the worker stayed unavailable past ``retry_deadline`` (``stored``: True, False or "unknown")."""

    def __init__(self, message: str, stored: Stored, cause: BaseException | None) -> None:
        super().__init__(message)
        self.stored: Stored = stored
        self.cause = cause
        self.__cause__ = cause


class ConversationRunEnded(Exception):
    """The conversation's run ended (say, an operator terminated it) while a call was being retried; it was not
    started again. Whether the messages reached the ended run is unknown."""

    stored: Stored = "unknown"


class UnansweredCallError(ValueError):
    """With setting ``unanswered: 'error'``, a tool call of the context has no result at send time (the messages were
    stored; the context cannot be sent as is)."""


def _message_of(err: BaseException) -> str:
    message = getattr(err, "message", None)
    return message if isinstance(message, str) else str(err)

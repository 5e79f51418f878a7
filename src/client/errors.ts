/**
 * Errors `ConversationClient` hands to its caller. Each says whether the call's messages were stored, so a caller
 * knows whether to send them again (a call retried inside the client never stores twice).
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';

/** Whether a failed call's messages are in the conversation: `unknown` only when the server stayed unreachable. */
export type Stored = boolean | 'unknown';

/**
 * The workflow refused the call (`type` is the documented failure type: InvalidAppend, InvalidSettings, InvalidStart,
 * OutOfOrder, VersionMismatch, ConversationClosed, InternalError). A `WorkflowUpdateFailedError`, so code catching that keeps working.
 */
export class ConversationUpdateError extends WorkflowUpdateFailedError {
  override readonly name: string = 'ConversationUpdateError';
  constructor(
    readonly type: string,
    readonly stored: Stored,
    cause: Error,
    /** @default the cause's message */
    what = cause.message
  ) {
    super(`${type}: ${what}${stored === true ? ' (the messages were stored)' : ''}`, cause);
  }

  /** @returns the update failure as a ConversationUpdateError (its ApplicationFailure type and `stored` detail). */
  static from(err: WorkflowUpdateFailedError): ConversationUpdateError {
    const cause = err.cause;
    if (cause instanceof ApplicationFailure) {
      if (cause.type === 'ConversationClosed') return new ConversationClosedError(cause.message, cause);
      const detail = cause.details?.[0] as { stored?: unknown } | undefined;
      return new ConversationUpdateError(cause.type ?? 'Error', detail?.stored === true, cause);
    }
    return new ConversationUpdateError('Error', false, cause ?? err);
  }
}

/** The server or the worker stayed unavailable past the caller's deadline (`retryDeadlineMs`). */
export class ConversationUnavailableError extends Error {
  override readonly name = 'ConversationUnavailableError';
  constructor(
    message: string,
    readonly stored: Stored,
    override readonly cause: unknown
  ) {
    super(message);
  }
}

/**
 * The conversation is closed: `close` ended it (the workflow refuses the call with type `ConversationClosed` while it
 * finishes) or its workflow has completed (the server refuses to start it again: a closed conversation stays
 * closed). Nothing was stored; use a new conversation id. A `ConversationUpdateError` of type `ConversationClosed`.
 */
export class ConversationClosedError extends ConversationUpdateError {
  override readonly name: string = 'ConversationClosedError';
  constructor(what: string, cause: Error) {
    super('ConversationClosed', false, cause, what);
  }
}

/**
 * The conversation's run ended (say, an operator terminated it) while a call was being retried: the call is not
 * started again in a new run. Whether its messages reached the ended run is unknown (`stored`).
 */
export class ConversationRunEnded extends Error {
  override readonly name = 'ConversationRunEnded';
  readonly stored: Stored = 'unknown';
}

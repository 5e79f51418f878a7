/**
 * The failure types the conversation workflow's handlers reject with (`ApplicationFailure.type`, always
 * non-retryable). These are the names the README documents; clients in any language switch on them.
 */
import { ApplicationFailure } from '@temporalio/workflow';

export const FailureType = {
  /**
   * An `append`/`prepare` input or one of its messages is malformed, or another update's or a query's input is;
   * nothing was stored.
   */
  invalidAppend: 'InvalidAppend',
  /** A settings patch or limits object is malformed or out of range; nothing changed. */
  invalidSettings: 'InvalidSettings',
  /** The start argument is malformed (the workflow fails before storing anything; the id can be started again). */
  invalidStart: 'InvalidStart',
  /** A writer's sequence number skipped ahead: an earlier append of that writer has not arrived yet (retry later). */
  outOfOrder: 'OutOfOrder',
  /** `rewind` with an `expectedVersion` that is not the current version; nothing changed. */
  versionMismatch: 'VersionMismatch',
  /** The conversation is closed; nothing changed. */
  closed: 'ConversationClosed',
  /** The `protocol` version sent is not one this worker speaks; nothing was stored (at start: the workflow fails). */
  unsupportedProtocol: 'UnsupportedProtocol',
  /** A bug: an unexpected error inside a handler. `details[0].stored` says whether the call's messages were stored. */
  internal: 'InternalError',
} as const;

export type FailureTypeName = (typeof FailureType)[keyof typeof FailureType];

/** Every documented failure type. */
export const FAILURE_TYPES: readonly FailureTypeName[] = Object.values(FailureType);

/**
 * Longest failure message, in characters. An update's answer travels in the workflow task completion together with
 * its request, under Temporal's payload limit: a message quoting what the caller sent must stay small.
 */
export const MAX_FAILURE_MESSAGE = 2000;

/** @returns a non-retryable ApplicationFailure of a documented type (its message cut at {@link MAX_FAILURE_MESSAGE}). */
export function failure(type: FailureTypeName, message: string, details?: unknown[]): ApplicationFailure {
  const text = message.length > MAX_FAILURE_MESSAGE ? `${message.slice(0, MAX_FAILURE_MESSAGE - 3)}...` : message;
  return ApplicationFailure.create({ type, message: text, nonRetryable: true, ...(details ? { details } : {}) });
}

/**
 * Error typing for handlers (`handle.ts` wraps every one with it): caller mistakes become `ApplicationFailure`s of
 * their documented type; anything else is logged and becomes an `InternalError` failure of just that call.
 */
import { ApplicationFailure, log } from '@temporalio/workflow';
import { ConversationClosed } from '../../contract/closed';
import { AppendRejected } from './conversation-state';
import { failure, FailureType } from '../../contract/failures';
import { SettingsError } from '../../contract/settings';
import { UnsupportedProtocol } from '../../contract/protocol-version';
import { OutOfOrderAppend, VersionMismatch } from './writers';
import { argumentsProblem } from '../../contract/schemas/problem';
import type { queryArguments } from '../../contract/schemas/arguments';

/**
 * @param stored for appends: whether the call's messages were stored before it failed (`details[0].stored`).
 * @returns the error as a non-retryable ApplicationFailure of a documented type.
 */
export function toFailure(
  err: unknown,
  handler: string,
  stored?: { stored: boolean; version?: number }
): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  const message = err instanceof Error ? err.message : String(err);
  const details = stored ? [stored] : undefined;
  if (err instanceof ConversationClosed) return failure(FailureType.closed, message, details);
  if (err instanceof OutOfOrderAppend) return failure(FailureType.outOfOrder, message, details);
  if (err instanceof VersionMismatch) return failure(FailureType.versionMismatch, message, details);
  if (err instanceof AppendRejected) return failure(FailureType.invalidAppend, message, details);
  if (err instanceof UnsupportedProtocol) return failure(FailureType.unsupportedProtocol, message, details);
  if (err instanceof SettingsError) return failure(FailureType.invalidSettings, message, details);
  log.error(`${handler}: unexpected error`, { error: message, stack: err instanceof Error ? err.stack : undefined });
  const note = stored ? (stored.stored ? ' (the messages were stored)' : ' (nothing was stored)') : '';
  return failure(FailureType.internal, `${handler} failed unexpectedly${note}: ${message}`, details);
}

/** Wraps a synchronous validator so its rejection carries a documented type. */
export function guardedValidator<A extends unknown[]>(handler: string, fn: (...args: A) => void) {
  return (...args: A): void => {
    try {
      fn(...args);
    } catch (err) {
      throw toFailure(err, `${handler} validator`);
    }
  };
}

/**
 * Wraps a query handler so an argument its schema refuses fails the query with `InvalidAppend` naming it (a query
 * changes nothing, and its failure fails no workflow task).
 */
export function checkedQuery<A extends unknown[], R>(
  query: string,
  schema: (typeof queryArguments)[keyof typeof queryArguments],
  fn: (...args: A) => R
) {
  return (...args: A): R => {
    const problem = argumentsProblem(schema, args, `${query} query`);
    if (problem) throw failure(FailureType.invalidAppend, problem);
    return fn(...args);
  };
}

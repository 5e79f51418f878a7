/**
 * The argument schema of every handler of `conversationWorkflow`, by kind and name: what the workflow checks each
 * call against, and what the protocol's JSON Schema says each argument is (scripts/protocol-schema.ts). `configure`
 * and the start argument are checked by `mergeSettings` and `checkStartInput`; their JSON Schema comes from their
 * TypeScript types.
 */
import { appendFields } from './append';
import { compactNowArgument } from './compact-now';
import { noArgument } from './no-input';
import { rewindArgument } from './rewind';
import { waitForFoldArgument } from './wait-for-fold';
import { writerId } from './writer-seq';

/** Each update's argument schema. */
export const updateArguments = {
  prepare: appendFields,
  append: appendFields,
  rewind: rewindArgument,
  clear: noArgument,
  close: noArgument,
  delete: noArgument,
  waitForFold: waitForFoldArgument,
  compactNow: compactNowArgument,
} as const;

/** Each signal's argument schema. */
export const signalArguments = { append: appendFields } as const;

/** Each query's argument schema. */
export const queryArguments = {
  context: noArgument,
  sendable: noArgument,
  state: noArgument,
  folds: noArgument,
  writerSeq: writerId,
} as const;

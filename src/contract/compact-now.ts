/**
 * `compactNow`: fold the conversation now, like `/compact [focus]` in coding agents. Its input, result, limits and
 * input (its schema: `schemas/compact-now.ts`); the handler is in `src/workflows/conversation/compact-now.ts`.
 */
import { defineUpdate } from '@temporalio/workflow';
import type { PrepareResult } from './definitions';
import { compactNowArgument, type CompactNowInput } from './schemas/compact-now';
import { problemOf } from './schemas/problem';

export { MAX_FOCUS_CHARS, type CompactNowInput } from './schemas/compact-now';

/** Result of `compactNow`. */
export interface CompactNowResult {
  /** True when a fold was applied (a summary, or a truncation with `roundsMode: 'truncate'`). */
  folded: boolean;
  /** What was done: the fold's reason, why it failed, or `nothing to fold: …`. */
  decision: string;
  /** The fold's outcome; `null` when nothing was tried. */
  fold: NonNullable<PrepareResult['fold']> | null;
  /** The context's version afterwards. */
  version: number;
}

/** Folds now; answers with the outcome. Bad input fails with `InvalidAppend`, a closed conversation `ConversationClosed`. */
export const compactNowUpdate = defineUpdate<CompactNowResult, [CompactNowInput]>('compactNow');

/** @returns what is wrong with a `compactNow` input, naming the field; `undefined` when it is fine. */
export function compactNowInputProblem(input: unknown): string | undefined {
  return problemOf(compactNowArgument, input, 'compactNow input');
}

/**
 * `compactNow`: fold the conversation now, like `/compact [focus]` in coding agents. Its input, result, limits and
 * input check; the handler is in `src/workflows/conversation/compact-now.ts`.
 */
import { defineUpdate } from '@temporalio/workflow';
import type { PrepareResult } from './definitions';
import { show } from './validate-plan';

/** Longest `focus`, in characters: instructions for one summary, not a document. */
export const MAX_FOCUS_CHARS = 2000;

/** Input of `compactNow`. */
export interface CompactNowInput {
  /**
   * What the summary should keep above all (at most {@link MAX_FOCUS_CHARS} characters). The model summarizers get
   * it after their instructions; the offline digest keeps the narrative lines that mention its words first.
   * @default none
   */
  focus?: string;
}

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
  if (input === undefined || input === null) return undefined;
  if (typeof input !== 'object' || Array.isArray(input))
    return `compactNow input must be an object {focus?}, got ${show(input)}`;
  const extra = Object.keys(input).filter((k) => k !== 'focus');
  if (extra.length > 0) return `compactNow: unknown key '${extra[0]!.slice(0, 40)}'; known: focus`;
  const focus = (input as CompactNowInput).focus;
  if (focus === undefined) return undefined;
  if (typeof focus !== 'string') return `compactNow: focus must be a string, got ${show(focus)}`;
  if (focus.length > MAX_FOCUS_CHARS)
    return `compactNow: focus is ${focus.length} characters; at most ${MAX_FOCUS_CHARS} are accepted`;
  if (focus.includes('\u0000')) return 'compactNow: focus must not contain NUL';
  return undefined;
}

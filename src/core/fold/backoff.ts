/**
 * Back-off after a failed fold. A prefix whose summary failed "unfolded" (too large, incomplete, no text) would
 * most likely fail the same way on the next turn, costing two summarizer calls each time. So the failure is
 * remembered — the prefix's hash, its length and the token count that triggered the fold — and that prefix is not
 * folded again until it has grown enough to make a different outcome likely. The memory is plain JSON data, so the
 * workflow keeps it in its state and a restarted worker resumes with it.
 */
import { prefixHash } from '../hash';
import type { FoldRecord } from './fold-record';
import { UNFOLDED_ERROR_KINDS } from './fold-record';

/** A remembered failed fold. Plain JSON: it round-trips through `JSON.stringify`/`JSON.parse` unchanged. */
export interface BackoffMemory {
  /** `prefixHash` of the first `split` raws of the transcript the failed fold was planned on. */
  prefixHash: string;
  /** Where that fold would have cut: the number of raws in the failed prefix. */
  split: number;
  /** The counted context tokens that triggered it. */
  tokens: number;
  /** How many failed folds in a row led to this memory (1 for the first). */
  failures: number;
  /** When the last one failed, in epoch milliseconds as the caller supplied it; `null` when not given. */
  at: number | null;
}

/** What {@link shouldBackOff} weighs: the transcript now and the fold the planner proposes for it. */
export interface BackoffQuery {
  /** The transcript's raws, in the caller's format. */
  raws: readonly unknown[];
  /** Where the proposed fold cuts. */
  split: number;
  /** The counted context tokens now. */
  tokens: number;
  /** The token budget. */
  budget: number;
  /** How many items the proposed fold keeps verbatim (its growth margin, at least 1). */
  keep: number;
  /** The time now, in epoch milliseconds; with `delays`, consecutive failures also wait (see {@link retryAt}). */
  now?: number;
  /** Escalating waits after consecutive failures of the same prefix. @default none (growth alone decides) */
  delays?: BackoffDelays;
}

/** Escalating waits between tries of a prefix that keeps failing. */
export interface BackoffDelays {
  /** Wait after the second failure in a row, ms; it doubles with each further failure. */
  initialMs: number;
  /** Longest wait, ms. */
  maxMs: number;
}

/**
 * When a prefix that failed `memory.failures` times in a row may be tried again: at once after the first failure
 * (growth alone decides), then `initialMs × 2^(failures − 2)` after the last failure, at most `maxMs`.
 * @returns epoch milliseconds; `memory.at` (or 0 when unknown) after a single failure.
 */
export function retryAt(memory: BackoffMemory, delays: BackoffDelays): number {
  const at = memory.at ?? 0;
  if (memory.failures < 2) return at;
  const wait = Math.min(delays.maxMs, delays.initialMs * 2 ** Math.min(memory.failures - 2, 30));
  return at + wait;
}

/**
 * Whether to skip folding now because the same prefix failed before. It backs off only while the transcript still
 * starts with the failed prefix (same hash) and has grown by fewer than `max(keep, 1)` items to fold and fewer than
 * `max(floor(budget/4), 1)` tokens — or, with `now` and `delays`, while the escalating wait after consecutive
 * failures ({@link retryAt}) has not passed. Another conversation, or one rewound before the failed prefix or changed
 * inside it, folds as usual.
 * @returns true to send unfolded this time; false when there is no memory or a fold is worth trying.
 */
export function shouldBackOff(memory: BackoffMemory | null | undefined, q: BackoffQuery): boolean {
  if (!memory || memory.prefixHash === '' || q.raws.length < memory.split) return false;
  const grown =
    q.split >= memory.split + Math.max(q.keep, 1) || q.tokens >= memory.tokens + Math.max(Math.floor(q.budget / 4), 1);
  const waiting = q.now !== undefined && q.delays !== undefined && q.now < retryAt(memory, q.delays);
  if (grown && !waiting) return false;
  return startsWith(memory, q.raws);
}

/** @returns true when `raws` starts with the prefix `memory` was recorded for (a new failure there escalates). */
export function startsWith(memory: BackoffMemory, raws: readonly unknown[]): boolean {
  return raws.length >= memory.split && prefixHash(raws.slice(0, memory.split)) === memory.prefixHash;
}

/**
 * Remembers a failed fold of `raws` cut at `split`, triggered at `tokens`.
 * @param input.previous the memory before this failure; its count carries on when `raws` still starts with its
 *   prefix (the same prefix failed again, grown or not), and starts again at 1 otherwise.
 * @param input.at the failure time in epoch milliseconds. @default null
 * @returns the new memory (the previous one is not modified).
 */
export function recordFailure(input: {
  raws: readonly unknown[];
  split: number;
  tokens: number;
  previous?: BackoffMemory | null;
  at?: number;
}): BackoffMemory {
  const split = Math.max(0, Math.min(input.split, input.raws.length));
  return {
    prefixHash: prefixHash(input.raws.slice(0, split)),
    split,
    tokens: input.tokens,
    failures: (input.previous && startsWith(input.previous, input.raws) ? input.previous.failures : 0) + 1,
    at: input.at ?? null,
  };
}

/**
 * Forgets a failed fold (after a successful fold, a manual fold or a reset).
 * @returns `null`, the empty memory.
 */
export function clearBackoff(): null {
  return null;
}

/**
 * Rebuilds the memory from a fold record, as a process resuming a conversation does from its history.
 * @returns the memory for a failed "unfolded" record (too large, incomplete, no text), else `null`.
 */
export function backoffFromRecord(record: FoldRecord): BackoffMemory | null {
  if (record.ok || !record.error || !UNFOLDED_ERROR_KINDS.includes(record.error.kind) || record.prefixHash === '') {
    return null;
  }
  return {
    prefixHash: record.prefixHash,
    split: record.split,
    tokens: record.tokensBefore,
    failures: 1,
    at: record.finishedAt,
  };
}

/**
 * Checks restored JSON data (workflow state, a saved file) before using it as a memory.
 * @returns true when `value` has every member of a {@link BackoffMemory} with the right type.
 */
export function isBackoffMemory(value: unknown): value is BackoffMemory {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const count = (x: unknown): boolean => typeof x === 'number' && Number.isInteger(x) && x >= 0;
  return (
    typeof v.prefixHash === 'string' &&
    /^[0-9a-f]{64}$/.test(v.prefixHash) &&
    count(v.split) &&
    typeof v.tokens === 'number' &&
    Number.isFinite(v.tokens) &&
    count(v.failures) &&
    (v.at === null || (typeof v.at === 'number' && Number.isFinite(v.at)))
  );
}

/**
 * The record of one fold attempt, successful or not: plain JSON data, so the workflow can keep it
 * in its state, the archive can store it as one line and a later process can rebuild its back-off from it.
 */
import { isCount, isObject } from '../input/json-values';
import type { Usage } from '../messages/types';
import type { FoldCacheEffect } from './cache-effect';
import type { SummaryErrorKind } from './validate-summary';

/**
 * Why a fold was not applied.
 * - `too_large`, `incomplete`, `no_text`: the summarizer answered twice with something unusable ("unfolded"
 *   errors); the transcript was sent as it was and the prefix is backed off from.
 * - `unsafe`: the folded context would have broken a safety rule (a bug, reported rather than applied).
 * - `provider`: the summarizer's provider call failed (HTTP, connection, refusal) after its retries.
 * - `aborted`: the attempt was cancelled.
 * - `discarded`: a summary written in the background was not applied: the prefix it covers was rewound or cleared
 *   meanwhile, or the offline fallback it was to replace had already been folded again.
 */
export type FoldErrorKind = SummaryErrorKind | 'unsafe' | 'provider' | 'aborted' | 'discarded';

/** The error kinds after which a fold is not retried on the same prefix (see `backoff.ts`). */
export const UNFOLDED_ERROR_KINDS: readonly FoldErrorKind[] = ['too_large', 'incomplete', 'no_text'];

/** A failed fold's error: its kind and a message that never carries the candidate summary text. */
export interface FoldError {
  kind: FoldErrorKind;
  message: string;
}

/** The item kept first after the folded part, identified without copying it. */
export interface FirstKept {
  /** Its index in the transcript the fold was planned on. */
  index: number;
  /** Its own id where the format gives one. */
  id?: string;
  /** `prefixHash([raw])` of the element, so a recorder can find it among stored messages by content. */
  hash: string;
}

/** One fold attempt. Every member is JSON; absent facts are `null`, never `undefined`. */
export interface FoldRecord {
  /** The attempt's ordinal in its conversation, counting from 1 (the archive stores records idempotently by it). */
  number: number;
  /** True when the fold was applied. */
  ok: boolean;
  /** Index into the planned transcript where the kept tail starts; the items before it were folded. */
  split: number;
  /** The item at `split`; `null` when the fold kept no tail or failed. */
  firstKept: FirstKept | null;
  /** What stands in for the folded part: a `text` summary item, or compaction-endpoint `items`; `null` on failure. */
  output: 'text' | 'items' | null;
  /** How many caller elements the summary replaced (neither hoisted nor pinned). */
  droppedCount: number;
  /** The counted context tokens that triggered the fold. */
  tokensBefore: number;
  /** The counted tokens of the folded context; `null` when the fold failed. */
  tokensAfter: number | null;
  /**
   * What the applied fold does to the provider's prompt cache (estimated from counted tokens). Absent on failed
   * attempts and in older records.
   */
  cache?: FoldCacheEffect;
  /** Provider usage summed over every summarizer call of the attempt; `null` when none was reported. */
  usage: Usage | null;
  /** The last summarizer call's response id; `null` when there was none. */
  responseId: string | null;
  /** Item or part types of the last call's output, in order (e.g. `['reasoning', 'function_call']`). */
  outputTypes: string[];
  /** How many summarizer calls the attempt made (1, or 2 when asked once more). */
  attempts: number;
  /** Indices of folded-part items kept verbatim after the summary. */
  pinned: number[];
  /** `prefixHash` of the transcript's first `split` raws, what the back-off memory keys on. */
  prefixHash: string;
  /** Why the fold was not applied; `null` when it was. */
  error: FoldError | null;
  /** How many of the identifiers found in the folded part the summary kept; `null` when not measured. */
  identifiers: { kept: number; total: number } | null;
  /** The archive sequence numbers the summary replaced, both ends inclusive; `null` when nothing was archived. */
  archiveRange: { firstSeq: number; lastSeq: number } | null;
  /** When the attempt started and finished, in epoch milliseconds as the caller supplied them (the core reads no clock). */
  startedAt: number;
  finishedAt: number;
  /**
   * True when the summary was written by the offline fallback at the hard limit because the model's summary was not
   * ready within `maxFoldWaitMs`. Absent in records written before background folds.
   */
  fallback?: boolean;
  /** The number of the fallback fold whose summary this one's model summary replaced; `null` when none. */
  replaces?: number | null;
  /**
   * `summaryRequestDigest` of the summarizer request (model, instructions, system prompt, messages); the archive keeps
   * the summary text under it (`inspect --summaries`). Absent when no summarizer answered, and in older records.
   */
  requestDigest?: string;
  /**
   * Set when the folded context is still over the budget: what a fold must keep (the instructions, pinned messages,
   * the last turn, the summary's rules and task) does not fit in it. `by` is how many tokens over. Absent: it fits
   * (or the caller gave no budget).
   */
  overBudget?: { budget: number; by: number };
}

/** Thrown by {@link parseFoldRecord} for data that is not a fold record; the message names the first bad field. */
export class FoldRecordError extends Error {
  override readonly name = 'FoldRecordError';
}

/**
 * Checks that JSON data read back (from the archive, a history, a saved state) is a fold record.
 * @returns the same value, typed.
 * @throws FoldRecordError naming the first missing or mistyped field.
 */
export function parseFoldRecord(value: unknown): FoldRecord {
  if (!isObject(value)) throw new FoldRecordError('fold record: not an object');
  const need = (key: string, ok: (v: unknown) => boolean, what: string): void => {
    if (!ok(value[key])) throw new FoldRecordError(`fold record: '${key}' must be ${what}`);
  };
  need('number', isCount, 'an integer ≥ 1');
  if ((value.number as number) < 1) throw new FoldRecordError("fold record: 'number' must be an integer ≥ 1");
  need('ok', (v) => typeof v === 'boolean', 'a boolean');
  for (const key of ['split', 'droppedCount', 'tokensBefore', 'attempts']) need(key, isCount, 'an integer ≥ 0');
  need('tokensAfter', (v) => v === null || isCount(v), 'an integer ≥ 0 or null');
  need(
    'firstKept',
    (v) => v === null || (isObject(v) && isCount(v.index) && typeof v.hash === 'string'),
    'null or {index, hash}'
  );
  need('output', (v) => v === null || v === 'text' || v === 'items', "'text', 'items' or null");
  need(
    'usage',
    (v) => v === null || (isObject(v) && isCount(v.inputTokens) && isCount(v.outputTokens)),
    'null or a usage'
  );
  need('responseId', (v) => v === null || typeof v === 'string', 'a string or null');
  need('outputTypes', (v) => Array.isArray(v) && v.every((t) => typeof t === 'string'), 'an array of strings');
  need('pinned', (v) => Array.isArray(v) && v.every(isCount), 'an array of indices');
  need('prefixHash', (v) => typeof v === 'string', 'a string');
  need(
    'error',
    (v) => v === null || (isObject(v) && typeof v.kind === 'string' && typeof v.message === 'string'),
    'null or {kind, message}'
  );
  need(
    'identifiers',
    (v) => v === null || (isObject(v) && isCount(v.kept) && isCount(v.total)),
    'null or {kept, total}'
  );
  need(
    'archiveRange',
    (v) => v === null || (isObject(v) && isCount(v.firstSeq) && isCount(v.lastSeq)),
    'null or {firstSeq, lastSeq}'
  );
  need('fallback', (v) => v === undefined || typeof v === 'boolean', 'a boolean when present');
  need('replaces', (v) => v === undefined || v === null || isCount(v), 'a fold number or null when present');
  need(
    'requestDigest',
    (v) => v === undefined || (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v)),
    '64 lowercase hex characters when present'
  );
  need(
    'overBudget',
    (v) => v === undefined || (isObject(v) && isCount(v.budget) && isCount(v.by)),
    '{budget, by} when present'
  );
  const tokens = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  need(
    'cache',
    (v) =>
      v === undefined ||
      (isObject(v) &&
        tokens(v.cachedTokens) &&
        tokens(v.writtenTokens) &&
        tokens(v.invalidatedTokens) &&
        v.source === 'estimate'),
    "{cachedTokens, writtenTokens, invalidatedTokens, source: 'estimate'} when present"
  );
  need('startedAt', Number.isFinite, 'a number');
  need('finishedAt', Number.isFinite, 'a number');
  if (value.ok !== (value.error === null))
    throw new FoldRecordError("fold record: 'ok' must be true exactly when 'error' is null");
  return value as unknown as FoldRecord;
}

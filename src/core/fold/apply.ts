/**
 * Applying a fold: the folded context in the caller's own format, instructions hoisted first, then what stands in for
 * the folded part, then the pinned items, then the kept tail. Kept elements are the caller's raws, untouched.
 */
import type { FormatAdapter, SummaryMeta } from '../messages/format-adapter';
import { adapterFor } from '../messages/adapter-for-format';
import type { Transcript } from '../messages/types';
import { checkFoldResult } from './check';
import { FoldApplyError } from './errors';
import { foldOrder, type FoldLayout } from './layout';

/** What replaces the folded part. */
export type FoldSummary =
  /** A summary text; the format adapter wraps it in a summary element that records what it replaced. */
  | { kind: 'text'; text: string }
  /** Output items of a provider's compaction endpoint, spliced in as returned. */
  | { kind: 'items'; items: readonly unknown[] };

/** What a summary element records about the items it replaced (the adapters' `SummaryMeta`). */
export type FoldedMeta = SummaryMeta;

/** Input of {@link applyFold}. */
export interface ApplyFoldInput {
  transcript: Transcript;
  plan: FoldLayout;
  summary: FoldSummary;
  /**
   * Builds the summary element of a `text` summary (only `summaryItem` is used).
   * @default the adapter of `transcript.format`
   */
  adapter?: Pick<FormatAdapter, 'summaryItem'>;
}

/**
 * The indices a fold removes from the context and what its summary element records about them.
 * @returns the removed indices in transcript order, their count and their ids (items without an id are skipped).
 */
export function foldedMeta(transcript: Transcript, plan: FoldLayout): FoldedMeta & { dropped: number[] } {
  const kept = new Set([...plan.instructions, ...plan.pinned, ...plan.tail]);
  const dropped: number[] = [];
  const summarizedIds: string[] = [];
  for (const item of transcript.items) {
    if (kept.has(item.index)) continue;
    dropped.push(item.index);
    if (item.id) summarizedIds.push(item.id);
  }
  return { dropped, droppedCount: dropped.length, summarizedIds };
}

/**
 * Builds the folded context: instructions (hoisted, see `foldOrder`) → summary element(s) → pinned → tail, as caller
 * raws. A `text` summary is trimmed and wrapped by `adapter.summaryItem`, which records the dropped count and ids;
 * `items` are spliced in as given.
 * @returns a new array; kept raws are the caller's own objects, not copies.
 * @throws FoldApplyError when the plan does not fold, or when the layout breaks a safety rule (see
 *   `checkFoldResult`); the error lists the violations.
 */
export function applyFold(input: ApplyFoldInput): unknown[] {
  const { transcript, plan, summary } = input;
  if (!plan.fold) throw new FoldApplyError('applyFold: the plan does not fold');
  assertSafe(transcript, plan);
  const raw = (index: number): unknown => transcript.items[index]!.raw;
  let folded: readonly unknown[];
  if (summary.kind === 'text') {
    const { droppedCount, summarizedIds } = foldedMeta(transcript, plan);
    const adapter = input.adapter ?? adapterFor(transcript.format);
    folded = [adapter.summaryItem(summary.text.trim(), { droppedCount, summarizedIds })];
  } else {
    folded = summary.items;
  }
  const { front, after } = foldOrder(transcript, plan);
  return [...front.map(raw), ...folded, ...after.map(raw)];
}

/**
 * Builds the context of a truncating plan (truncate mode): the dropped items simply leave, with no summary in
 * their place; instructions stay hoisted first and the tail follows.
 * @returns a new array of the caller's kept raws, by reference.
 * @throws FoldApplyError when the plan is not of kind `truncate`, or when the layout breaks a safety rule.
 */
export function applyTruncate(input: { transcript: Transcript; plan: FoldLayout & { kind?: string } }): unknown[] {
  const { transcript, plan } = input;
  if (plan.kind !== 'truncate') throw new FoldApplyError('applyTruncate: the plan does not truncate');
  assertSafe(transcript, plan);
  const { front, after } = foldOrder(transcript, plan);
  return [...front, ...after].map((index) => transcript.items[index]!.raw);
}

/** Throws a {@link FoldApplyError} listing the violations when the layout breaks a safety rule. */
function assertSafe(transcript: Transcript, plan: FoldLayout): void {
  const violations = checkFoldResult({ transcript, plan });
  if (violations.length === 0) return;
  const list = violations.map((v) => v.message).join('; ');
  throw new FoldApplyError(`the folded context would break ${violations.length} safety rule(s): ${list}`, violations);
}

/**
 * The state ledger carried across folds (pure, deterministic): the ledger a previous summary printed is read back and
 * merged whole with what the newly folded messages say, so nothing older than one fold is lost to a header line.
 */
import type { Item } from '../../messages/types';
import { summaryBody, summaryKey, type CarriedLedger } from './carried';
import { cleanCalls, extractLedger } from './extract';
import { mergeLedgers } from './merge';
import { parseLedger } from './parse';
import type { LedgerEntry, StateLedger } from './types';

export type { EntryKind, GoalStatus, LedgerEntry, StateLedger } from './types';
export { KIND_HEADING, KIND_ORDER } from './types';
export { entryLine, renderLedger, renderTask, LEDGER_TITLE, TASK_TITLE } from './render';
export { asPointer, pointerText } from './pointer-entry';
export { fitLedger, entryTier, softTokens } from './priority';
export type { FitLedgerOptions, FittedLedger } from './priority';
export { parseLedger } from './parse';
export { boundLedger, summaryBody, summaryKey } from './carried';
export { carriedLedgerProblem } from './carried-check';
export type { CarriedLedger } from './carried';
export { addEntry, mergeLedgers, supersedes } from './merge';
export { extractLedger, OBSERVATION_CHARS } from './extract';
export { appendMissing, keepsEntry, MISSING_HEADING } from './check';
export type { AppendMissingOptions, AppendMissingResult } from './check';

/** The ledger of a fold, and the narrative lines earlier summaries carried. */
export interface FoldLedger {
  ledger: StateLedger;
  /** The ledger earlier summaries carried, before the new items were merged into it. */
  previous: StateLedger;
  /** Entries a later one replaced while merging (their values are stale). */
  replaced: LedgerEntry[];
  /** Lines of earlier summaries that are not ledger (their narrative), oldest first. */
  carried: string[];
}

/**
 * Builds the ledger of the items being folded: earlier summaries' ledgers, merged with the entries of the new items.
 *
 * @param seqs archive sequence number of each item, by position
 * @param state the ledger the caller carried from its last fold: merged whole in place of the ledger printed in the
 *   summary it belongs to (that summary's text is then read for its narrative only)
 * @returns the merged ledger and the carried narrative
 */
export function buildFoldLedger(
  items: readonly Item[],
  seqs?: readonly (number | null)[],
  state?: CarriedLedger
): FoldLedger {
  let previous: StateLedger = { entries: [] };
  const carried: string[] = [];
  const replaced: LedgerEntry[] = [];
  for (const item of items) {
    if (item.role !== 'summary' || !item.text.trim()) continue;
    const parsed = parseLedger(summaryBody(item.text));
    const own = state !== undefined && summaryKey(item.text) === state.summaryKey ? state.ledger : parsed.ledger;
    previous = mergeLedgers(previous, own, { cleanCalls: new Set(), assistantSpoke: false }, replaced);
    carried.push(...parsed.narrative);
  }
  const positions = items.map((_, i) => i).filter((i) => items[i]!.role !== 'summary');
  const fresh = positions.map((i) => items[i]!);
  const next = extractLedger(fresh, {
    ...(seqs ? { seqs: positions.map((i) => seqs[i] ?? null) } : {}),
    taskKnown: previous.task !== undefined,
  });
  const ledger = mergeLedgers(
    previous,
    next,
    {
      cleanCalls: cleanCalls(fresh),
      assistantSpoke: fresh.some((i) => i.role === 'assistant' && i.text.trim() !== ''),
    },
    replaced
  );
  return { ledger, previous, carried, replaced };
}

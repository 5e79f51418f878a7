/**
 * The state ledger as state: where a fold's caller keeps state (the conversation workflow, the Compactor), it carries
 * the merged ledger of its last fold as a structure, every entry whole, bound to the summary it belongs to by a hash
 * of that summary's text. The next fold merges it instead of reading the ledger back out of the printed summary, so an
 * entry a tight fold printed as a pointer (or left out) is whole again when there is room. Where the summary in the
 * head is not the one the ledger belongs to (edited, imported, replaced), the ledger is read from the summary's text.
 */
import { sha256Hex } from '../../hash';
import { SUMMARY_MARKER } from '../../messages/summary-marker';
import { CARRIED_LEDGER_MAX_BYTES, CARRIED_MAX_ENTRIES, CARRIED_TEXT_MAX_CHARS, ledgerBytes } from './carried-check';
import { entryTier } from './priority';
import type { LedgerEntry, StateLedger } from './types';

export type { CarriedLedger } from './carried-check';

/** The body of a summary item: its marker line (`[Summary of the earlier conversation: …]`) is not content. */
export function summaryBody(text: string): string {
  const t = text.trim();
  return t.startsWith(SUMMARY_MARKER) ? t.slice(t.indexOf('\n') + 1 || t.length).trim() : t;
}

/**
 * The key binding a ledger to a summary: a hash of its body with whitespace collapsed (formats differ in how a
 * summary message is wrapped, never in its words).
 *
 * @returns 64 hex digits
 */
export function summaryKey(summaryText: string): string {
  return sha256Hex(summaryBody(summaryText).replace(/\s+/g, ' ').trim());
}

/** The first whole sentences of `text` within `max` characters (at least its first `max` characters). */
function firstSentences(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const m of text.matchAll(/(?<=[.!?])\s+|\n+/g)) {
    if (m.index > max) break;
    end = m.index;
  }
  return text.slice(0, end > 0 ? end : max).trimEnd();
}

/**
 * Bounds a ledger for carrying: long texts keep their first sentences, and while it is over
 * {@link CARRIED_LEDGER_MAX_BYTES} or {@link CARRIED_MAX_ENTRIES} the least binding entries go, oldest first (the
 * archive keeps their messages).
 *
 * @returns the bounded ledger (the input when it fits)
 */
export function boundLedger(ledger: StateLedger, maxBytes = CARRIED_LEDGER_MAX_BYTES): StateLedger {
  const clipEntry = (e: LedgerEntry): LedgerEntry => ({
    ...e,
    text: firstSentences(e.text, CARRIED_TEXT_MAX_CHARS),
    ...(e.was !== undefined ? { was: firstSentences(e.was, CARRIED_TEXT_MAX_CHARS) } : {}),
  });
  const task = ledger.task ? { ...ledger.task, text: firstSentences(ledger.task.text, CARRIED_TEXT_MAX_CHARS) } : null;
  const entries = ledger.entries.map(clipEntry);
  const out = (list: LedgerEntry[]): StateLedger => ({ ...(task ? { task } : {}), entries: list });
  if (ledgerBytes(out(entries)) <= maxBytes && entries.length <= CARRIED_MAX_ENTRIES) return out(entries);
  const order = entries.map((e, i) => ({ i, tier: entryTier(e) })).sort((a, b) => b.tier - a.tier || a.i - b.i);
  const dropped = new Set<number>();
  let size = ledgerBytes(out(entries));
  for (const { i } of order) {
    if (size <= maxBytes && entries.length - dropped.size <= CARRIED_MAX_ENTRIES) break;
    dropped.add(i);
    size -= ledgerBytes(entries[i]) + 1;
  }
  return out(entries.filter((_, i) => !dropped.has(i)));
}

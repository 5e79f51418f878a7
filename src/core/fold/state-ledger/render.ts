/**
 * The ledger as text, and the one way it is printed in every summary so that the next fold can read it back
 * (`parse.ts`): a heading per kind, one line per entry, `- [#SEQ, STATUS] text (was: …)`.
 */
import { clip } from '../text-clip';
import { statementValues } from './sentences';
import { KIND_HEADING, KIND_ORDER } from './types';
import type { EntryKind, LedgerEntry, StateLedger } from './types';

/** First line of the ledger section. */
export const LEDGER_TITLE = 'State ledger ([#N] = archived message N; a later value replaces an earlier one):';
/** First words of the task section's heading. */
export const TASK_TITLE = 'Task (the first user request, verbatim';

/** How much a rendering may shorten. */
export interface RenderLedgerOptions {
  /** Longest entry text, characters; longer entries keep their start and values and point to the archive. */
  entryChars?: number;
  /** Kinds printed as a list of archive pointers only (the last resort before clipping). */
  collapse?: ReadonlySet<EntryKind>;
}

// A shortened text points to its archived message; the short form keeps small summaries small.
const pointer = (seq: number | null): string => (seq === null ? '' : ` (→ #${seq})`);

/**
 * Shortens a statement to about `max` characters: its first words, then its values (numbers, names, identifiers)
 * that were cut, then a pointer to the archive.
 *
 * @returns the text (unchanged when it fits)
 */
export function shortenStatement(text: string, max: number, seq: number | null): string {
  if (text.length <= max) return text;
  const head = clip(text, Math.max(8, Math.floor(max * 0.6)));
  const missing = statementValues(text).filter((v) => !head.includes(v));
  // Values are what a shortened entry is for: they are kept whole unless they alone are longer than the entry was.
  const values = missing.length > 0 ? ` [${clip(missing.join(' '), Math.max(40, max))}]` : '';
  return `${head}${values}${pointer(seq)}`;
}

/** @returns the entry's tag: `[#12]`, `[#12, next]`, `[next]`, or "" */
function tag(e: LedgerEntry): string {
  const parts = [...(e.seq !== null ? [`#${e.seq}`] : []), ...(e.status ? [e.status] : [])];
  return parts.length > 0 ? `[${parts.join(', ')}] ` : '';
}

/**
 * One entry's line.
 *
 * @returns `- [#SEQ, STATUS] text (was: …)`
 */
export function entryLine(e: LedgerEntry, entryChars = Infinity): string {
  const text = Number.isFinite(entryChars) ? shortenStatement(e.text, entryChars, e.seq) : e.text;
  const was = e.was ? ` (was: ${clip(e.was, Math.min(160, entryChars))})` : '';
  return `- ${tag(e)}${text}${was}`;
}

/**
 * The ledger section (without the task).
 *
 * @returns the text, "" for an empty ledger
 */
export function renderLedger(ledger: StateLedger, options: RenderLedgerOptions = {}): string {
  const blocks: string[] = [];
  for (const kind of KIND_ORDER) {
    const entries = ledger.entries.filter((e) => e.kind === kind);
    if (entries.length === 0) continue;
    const lines = options.collapse?.has(kind)
      ? [
          `- ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, in the archive: ${entries.map((e) => (e.seq === null ? '?' : `#${e.seq}`)).join(' ')}`,
        ]
      : entries.map((e) => entryLine(e, options.entryChars));
    blocks.push([KIND_HEADING[kind], ...lines].join('\n'));
  }
  return blocks.length > 0 ? [LEDGER_TITLE, ...blocks].join('\n') : '';
}

/**
 * The task section.
 *
 * @param maxChars clip of the task text (a clipped task points to the archive)
 * @returns the heading and the task quoted line by line (`> `), "" without a task
 */
export function renderTask(task: StateLedger['task'], maxChars = Infinity): string {
  if (!task) return '';
  const at = task.seq !== null ? `, archive #${task.seq}` : '';
  const text =
    task.text.length > maxChars ? `${clip(task.text, Math.max(1, maxChars))}${pointer(task.seq)}` : task.text;
  // Quoted line by line, so a blank line inside the task does not end the section for the parser.
  const quoted = text.split('\n').map((l) => (l ? `> ${l}` : '>'));
  return `${TASK_TITLE}${at}):\n${quoted.join('\n')}`;
}

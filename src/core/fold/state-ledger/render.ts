/**
 * The ledger as text, and the one way it is printed in every summary so that the next fold can read it back
 * (`parse.ts`): a heading per kind, one line per entry, `- [#SEQ, STATUS, pointer] text (was: …)`. Every
 * field of every entry reads back exactly (`parseLedger(renderLedger(l))` is `l`): a summary is the ledger's
 * machine-readable form wherever only messages exist (the CLI, an imported conversation).
 */
import { oneLine } from '../text-clip';
import { pointerText } from './pointer-entry';
import { KIND_HEADING, KIND_ORDER } from './types';
import type { LedgerEntry, StateLedger } from './types';

/** First line of the ledger section. */
export const LEDGER_TITLE = 'State ledger ([#N] = archived message N; a later value replaces an earlier one):';
/** First words of the task section's heading. */
export const TASK_TITLE = 'Task (the first user request, verbatim';

/** @returns the entry's tag: `[#12]`, `[#12, next]`, `[#12, pointer]`, `[next]`, or "" */
function tag(e: LedgerEntry): string {
  const parts = [
    ...(e.seq !== null ? [`#${e.seq}`] : []),
    ...(e.status ? [e.status] : []),
    ...(e.pointer ? ['pointer'] : []),
  ];
  return parts.length > 0 ? `[${parts.join(', ')}] ` : '';
}

/**
 * One entry's line, exactly as `parseLedger` reads it back.
 *
 * @returns `- [#SEQ, STATUS, pointer] text (was: …)`
 */
export function entryLine(e: LedgerEntry): string {
  const was = e.was ? ` (was: ${e.was})` : '';
  return `- ${tag(e)}${oneLine(e.text)}${was}`;
}

/**
 * The ledger section (without the task): a heading per kind, in {@link KIND_ORDER}, one line per entry.
 *
 * @returns the text, "" for an empty ledger
 */
export function renderLedger(ledger: StateLedger): string {
  const blocks: string[] = [];
  for (const kind of KIND_ORDER) {
    const entries = ledger.entries.filter((e) => e.kind === kind);
    if (entries.length > 0) blocks.push([KIND_HEADING[kind], ...entries.map((e) => entryLine(e))].join('\n'));
  }
  return blocks.length > 0 ? [LEDGER_TITLE, ...blocks].join('\n') : '';
}

/**
 * The longest run of whole sentences (or lines) of `text` within `max` characters; when not even the first sentence
 * fits, its pointer form (subject and values, no cut word).
 *
 * @returns the prefix, and whether anything was left out
 */
function wholeSentences(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let end = 0;
  for (const m of text.matchAll(/(?<=[.!?:;])\s+|\n+/g)) {
    if (m.index > max) break;
    end = m.index;
  }
  if (end > 0) return { text: text.slice(0, end).trimEnd(), cut: true };
  return { text: pointerText(text, Math.max(3, Math.floor(max / 8))), cut: true };
}

/**
 * The task section. A task longer than `maxChars` keeps its first whole sentences and points to its archived message
 * for the rest: never a clause cut in the middle.
 *
 * @param maxChars room for the task text, characters
 * @returns the heading and the task quoted line by line (`> `), "" without a task
 */
export function renderTask(task: StateLedger['task'], maxChars = Infinity): string {
  if (!task) return '';
  const at = task.seq !== null ? `, archive #${task.seq}` : '';
  const kept = wholeSentences(task.text, maxChars);
  const rest = task.seq !== null ? `(the rest: archive #${task.seq})` : '(the rest is not in this summary)';
  const text = kept.cut ? `${kept.text}\n${rest}` : kept.text;
  // Quoted line by line, so a blank line inside the task does not end the section for the parser.
  const quoted = text.split('\n').map((l) => (l ? `> ${l}` : '>'));
  return `${TASK_TITLE}${at}):\n${quoted.join('\n')}`;
}

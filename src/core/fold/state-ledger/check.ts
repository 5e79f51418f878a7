/**
 * Checking a model's summary against the ledger built by code: an entry counts as kept when the summary states its
 * values (numbers, names, identifiers) and most of its subject words; the task when most of its words are there.
 * What is missing is appended in the ledger's own format, so the next fold reads it back like any other ledger.
 */
import { asPointer, pointerText } from './pointer-entry';
import { entryLine } from './render';
import { statementValues, subjectWords } from './sentences';
import { KIND_HEADING, KIND_ORDER } from './types';
import type { StateLedger } from './types';

/** First line of the appended section. */
export const MISSING_HEADING =
  'From the state ledger, left out of the summary above (verbatim; [#N] = archived message N):';

/**
 * Whether a summary keeps an entry.
 *
 * @returns true when every value of the entry and at least 60% of its subject words appear (case-insensitive)
 */
export function keepsEntry(summary: string, text: string): boolean {
  const low = summary.toLowerCase();
  const values = statementValues(text).filter((v) => /[\d@/_]/.test(v) || v.length > 3);
  if (!values.every((v) => low.includes(v.toLowerCase()))) return false;
  const words = subjectWords(text);
  if (words.length === 0) return true;
  const found = words.filter((w) => low.includes(w)).length;
  return found / words.length >= 0.6;
}

/** Options of {@link appendMissing}. */
export interface AppendMissingOptions {
  /** Cap on the appended section, tokens by `count`. */
  maxTokens: number;
  count: (text: string) => number;
}

/** What {@link appendMissing} did. */
export interface AppendMissingResult {
  text: string;
  /** Entries appended (the task counts as one). */
  appended: number;
  /** Missing entries that did not fit. */
  omitted: number;
}

/**
 * Appends the ledger entries a summary left out, most binding kinds first (rules, limits, decisions, …), until the
 * cap; an entry too long for the room left becomes its pointer (subject and values, `[#N, pointer]`).
 *
 * @returns the text with the section appended (unchanged when nothing is missing or nothing fits)
 */
export function appendMissing(
  summary: string,
  ledger: StateLedger,
  options: AppendMissingOptions
): AppendMissingResult {
  const { count } = options;
  const missing = KIND_ORDER.flatMap((k) => ledger.entries.filter((e) => e.kind === k && !keepsEntry(summary, e.text)));
  const taskMissing = ledger.task !== undefined && !keepsEntry(summary, ledger.task.text.slice(0, 400));
  const total = missing.length + (taskMissing ? 1 : 0);
  if (total === 0) return { text: summary, appended: 0, omitted: 0 };
  const lines: string[] = [MISSING_HEADING];
  let used = count(MISSING_HEADING) + 2;
  let appended = 0;
  const tryAdd = (candidates: string[]): boolean => {
    for (const line of candidates) {
      const cost = count(line) + 1;
      if (used + cost <= options.maxTokens) {
        lines.push(line);
        used += cost;
        return true;
      }
    }
    return false;
  };
  if (taskMissing && ledger.task) {
    const at = ledger.task.seq !== null ? ` [#${ledger.task.seq}]` : '';
    const t = ledger.task.text.replace(/\s+/g, ' ');
    if (tryAdd([`Task${at}: ${t}`, `Task${at}: ${pointerText(t, 40)}`, `Task${at}: ${pointerText(t, 12)}`]))
      appended += 1;
  }
  let heading: string | undefined;
  for (const e of missing) {
    const head = KIND_HEADING[e.kind];
    const withHeading = (line: string): string => (head !== heading ? `${head}\n${line}` : line);
    const forms = [entryLine(e), entryLine(asPointer(e)), entryLine(asPointer(e, 5))];
    if (tryAdd(forms.map(withHeading))) {
      heading = head;
      appended += 1;
    }
  }
  if (appended === 0) return { text: summary, appended: 0, omitted: total };
  return { text: `${summary.trimEnd()}\n\n${lines.join('\n')}`, appended, omitted: total - appended };
}

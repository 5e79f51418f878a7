/** Reading a ledger back out of a summary written by {@link renderLedger} (or appended to a model's summary). */
import { KIND_HEADING } from './types';
import type { EntryKind, GoalStatus, LedgerEntry, StateLedger } from './types';
import { LEDGER_HEADING } from '../identifier-ledger';
import { MISSING_HEADING } from './check';
import { LEDGER_TITLE, TASK_TITLE } from './render';

const HEADING_KIND = new Map<string, EntryKind>(
  (Object.entries(KIND_HEADING) as [EntryKind, string][]).map(([k, h]) => [h, k])
);
const ENTRY = /^- (?:\[(?:#(\d+))?(?:,?\s*(done|in progress|next))?(,?\s*pointer)?\] )?(.*?)(?: \(was: (.*)\))?$/;
const TASK_SEQ = /archive #(\d+)\):$/;
// The task as `appendMissing` writes it, on one line.
const TASK_LINE = /^Task(?: \[#(\d+)\])?: (.+)$/;

/** What a previous summary holds: its ledger, and every other line (the narrative, carried as low-value prose). */
export interface ParsedSummary {
  ledger: StateLedger;
  narrative: string[];
}

/**
 * Parses a summary's text. Lines under a kind heading are entries; the task section is its quoted (`> `) lines; the
 * identifier section is skipped (the identifier ledger rebuilds it); everything else is narrative.
 *
 * @returns the ledger and the narrative lines (blank lines, headings and the ledger title left out)
 */
export function parseLedger(text: string): ParsedSummary {
  const entries: LedgerEntry[] = [];
  const narrative: string[] = [];
  let task: StateLedger['task'];
  let kind: EntryKind | undefined;
  let inTask = false;
  // The identifier section is rebuilt from the text by the identifier ledger on every fold: not narrative.
  let inIdentifiers = false;
  const taskLines: string[] = [];
  let taskSeq: number | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith(TASK_TITLE)) {
      inTask = true;
      const m = TASK_SEQ.exec(line);
      taskSeq = m ? Number(m[1]) : null;
      continue;
    }
    if (inTask && line.startsWith('>')) {
      taskLines.push(line.replace(/^> ?/, ''));
      continue;
    }
    if (inTask) {
      inTask = false;
      task = { text: taskLines.join('\n'), seq: taskSeq };
    }
    if (line.trim() === '') {
      kind = undefined;
      inIdentifiers = false;
      continue;
    }
    if (line === LEDGER_HEADING) inIdentifiers = true;
    if (inIdentifiers) continue;
    const heading = HEADING_KIND.get(line.trim());
    if (heading) {
      kind = heading;
      continue;
    }
    if (line === LEDGER_TITLE || line === MISSING_HEADING) continue;
    const taskLine = task ? null : TASK_LINE.exec(line);
    if (taskLine) {
      task = { text: taskLine[2] ?? '', seq: taskLine[1] !== undefined ? Number(taskLine[1]) : null };
      continue;
    }
    const m = kind ? ENTRY.exec(line) : null;
    if (kind && m) {
      const status = m[2] as GoalStatus | undefined;
      entries.push({
        kind,
        text: m[4] ?? '',
        seq: m[1] !== undefined ? Number(m[1]) : null,
        ...(status ? { status } : {}),
        ...(m[5] !== undefined ? { was: m[5] } : {}),
        ...(m[3] !== undefined ? { pointer: true as const } : {}),
      });
    } else {
      kind = undefined;
      narrative.push(line);
    }
  }
  if (inTask && taskLines.length > 0) task = { text: taskLines.join('\n'), seq: taskSeq };
  return { ledger: { ...(task ? { task } : {}), entries }, narrative };
}

/**
 * Merging the ledger a previous summary carried with the one read from newly folded messages. Update-aware: a later
 * statement about the same subject with a different value replaces the earlier one (a decision keeps "was …", since
 * knowing what was decided against matters; a fact or a limit does not, since a stale value is a trap).
 */
import { replacement } from './supersede';
import type { LedgerEntry, StateLedger } from './types';

export { supersedes } from './supersede';

const norm = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();

/** What the newly folded part says beyond its entries. */
export interface MergeContext {
  /** Error keys of calls that ran cleanly in the new part: carried errors with these keys are resolved. */
  cleanCalls: ReadonlySet<string>;
  /** The assistant spoke in the new part: carried open questions count as answered (kept as `said`). */
  assistantSpoke: boolean;
}

/**
 * Merges `next` (newer) into `previous`.
 *
 * @param replaced receives the entries a newer one replaced
 * @returns the merged ledger: the previous task (else the new one), carried entries still current, then new ones
 */
export function mergeLedgers(
  previous: StateLedger,
  next: StateLedger,
  ctx: MergeContext,
  replaced: LedgerEntry[] = []
): StateLedger {
  const newTaskList = next.entries.some((e) => e.kind === 'goal' && e.status !== undefined);
  let entries = previous.entries
    .filter((e) => {
      if (e.kind === 'error') return !ctx.cleanCalls.has(e.text.split(' → ')[0] ?? '');
      return !(newTaskList && e.kind === 'goal' && e.status !== undefined);
    })
    // A carried question the assistant has since spoken after stays as something the user said.
    .map((e) => (e.kind === 'question' && ctx.assistantSpoke ? { ...e, kind: 'said' as const } : e));
  for (const e of next.entries) entries = addEntry(entries, e, replaced);
  const task = previous.task ?? next.task;
  return { ...(task ? { task } : {}), entries };
}

/**
 * Adds one entry: an exact repeat is dropped (the first keeps its sequence number), a superseded entry is removed.
 *
 * @param replaced receives the entries `e` replaced
 * @returns the new entry list
 */
export function addEntry(entries: readonly LedgerEntry[], e: LedgerEntry, replaced: LedgerEntry[] = []): LedgerEntry[] {
  if (entries.some((x) => norm(x.text) === norm(e.text))) return [...entries];
  let gone = entries.filter((x) => replacement(e, x) === 'strict');
  // Filling a slot on less than most of its subject, an update replaces the latest entry in it only.
  if (gone.length === 0) gone = entries.filter((x) => replacement(e, x) === 'slot').slice(-1);
  if (gone.length === 0) return [...entries, e];
  replaced.push(...gone);
  const last = gone[gone.length - 1]!;
  // A replaced decision is named by its archive number, not restated: its old value in the context is a trap.
  const added = e.kind === 'decision' && last.seq !== null ? { ...e, was: `#${last.seq}` } : e;
  return [...entries.filter((x) => !gone.includes(x)), added];
}

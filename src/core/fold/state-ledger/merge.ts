/**
 * Merging the ledger a previous summary carried with the one read from newly folded messages. Update-aware: a later
 * statement about the same subject with a different value replaces the earlier one (a decision keeps "was …", since
 * knowing what was decided against matters; a fact or a limit does not, since a stale value is a trap).
 */
import { statementValues, subjectWords } from './sentences';
import type { EntryKind, LedgerEntry, StateLedger } from './types';

const norm = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();

// Kinds that say what a value is: the wording picks one of them ("Keep the batch under 200." is a limit, "The batch
// size is 350 now." a fact, "let's switch the keys to camelCase" a decision), so an update may come in another one.
// Rules, goals, questions and errors are only ever replaced by their own kind.
const VALUE_KINDS: ReadonlySet<EntryKind> = new Set([
  'fact',
  'constraint',
  'said',
  'preference',
  'decision',
  'goal',
  'observation',
]);

/** @returns whether entries of these kinds may replace one another: the same kind, or both stated values */
function sameKind(a: EntryKind, b: EntryKind): boolean {
  return a === b || (VALUE_KINDS.has(a) && VALUE_KINDS.has(b));
}

// Wording that says a statement changes an earlier one: "actually", "scratch that", "instead", "moved to",
// "rescheduled", "from now on", "is now" …
const UPDATE_CUE =
  /\b(?:actually|scratch that|instead|no longer|any ?more|change of plans?|changed?|moved?|rescheduled|postponed|pushed (?:back|out)|brought\b.{0,30}\bforward|switch(?:ed)? to|replaced?|forget|from now on|going forward|from here on|now|new|updated?|correction|relaxed|raised|lowered|re-?prioriti[sz]ed|on (?:second thought|reflection))\b/i;

/**
 * True when `newer` states a new value for what `older` was about: a comparable kind (the same, or both stated
 * values), at least half the subject words and names of `older` (two, unless it has two or fewer) making at least
 * 15% of those of `newer`, and a value of `older` that `newer` no longer has. A newer statement worded as a change
 * ({@link UPDATE_CUE}) needs less: a third of the older one's subject words (two when the older one states no value,
 * which it may then have), whatever else it says; and it may be a rule replacing a plain statement or a preference
 * ("Send me the update by email." → "Let's move the update to Slack instead, I never check my inbox.").
 *
 * @returns whether `newer` replaces `older`
 */
export function supersedes(newer: LedgerEntry, older: LedgerEntry): boolean {
  const updatable = (e: LedgerEntry): boolean => e.kind !== 'question' && e.kind !== 'error' && e.status === undefined;
  if (!updatable(newer) || !updatable(older)) return false;
  const cue = UPDATE_CUE.test(newer.text);
  const kinds =
    sameKind(newer.kind, older.kind) ||
    (cue && newer.kind === 'rule' && (older.kind === 'said' || older.kind === 'preference'));
  if (!kinds) return false;
  // A name both state is part of the subject ("Stay on Python 3.9" / "we can target Python 3.11 now").
  const names = (t: string): string[] =>
    statementValues(t)
      .filter((v) => !/\d/.test(v))
      .map((v) => v.toLowerCase());
  const a = [...new Set([...subjectWords(older.text), ...names(older.text)])];
  const b = new Set([...subjectWords(newer.text), ...names(newer.text)]);
  // Most of what the older statement was about, said again: a later statement is often longer ("Heads up, we failed
  // over last night — the production database host is now pg-replica-02 …").
  const common = a.filter((w) => b.has(w)).length;
  const newValues = new Set(statementValues(newer.text).map((v) => v.toLowerCase()));
  const oldValues = statementValues(older.text).map((v) => v.toLowerCase());
  const changed = oldValues.some((v) => !newValues.has(v));
  if (cue && common >= Math.max(1, Math.ceil(a.length / 3))) {
    // A statement with no value is replaced on two shared subject words; a value by a new one, of the same shape when
    // only one subject word is shared ("the vendor meeting is Thursday" → "the vendor rescheduled to Monday", not
    // "now rebuild the vendor bundle with 4 workers").
    if (oldValues.length === 0) return common >= 2;
    const gone = new Set(oldValues.filter((v) => !newValues.has(v)).map(valueShape));
    if (common >= 2) return newValues.size > 0 && gone.size > 0;
    return [...newValues].some((v) => gone.has(valueShape(v)));
  }
  if (common < Math.max(1, Math.min(2, Math.ceil(a.length / 2))) || common / a.length < 0.5 || common / b.size < 0.15)
    return false;
  return newValues.size > 0 && oldValues.length > 0 && changed;
}

/**
 * The shape of a value: a path or address, an e-mail, an identifier, a number (a date, an amount, a time), or a name.
 *
 * @returns the shape
 */
function valueShape(v: string): string {
  if (/[/\\]|:\/\//.test(v)) return 'path';
  if (v.includes('@')) return 'email';
  if (/\d/.test(v) && /[_-]/.test(v) && /[a-z]/i.test(v)) return 'id';
  if (/\d/.test(v)) return 'number';
  return 'name';
}

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
 * @returns the merged ledger: the previous task (else the new one), carried entries still current, then new ones
 */
export function mergeLedgers(previous: StateLedger, next: StateLedger, ctx: MergeContext): StateLedger {
  const newTaskList = next.entries.some((e) => e.kind === 'goal' && e.status !== undefined);
  let entries = previous.entries
    .filter((e) => {
      if (e.kind === 'error') return !ctx.cleanCalls.has(e.text.split(' → ')[0] ?? '');
      return !(newTaskList && e.kind === 'goal' && e.status !== undefined);
    })
    // A carried question the assistant has since spoken after stays as something the user said.
    .map((e) => (e.kind === 'question' && ctx.assistantSpoke ? { ...e, kind: 'said' as const } : e));
  for (const e of next.entries) entries = addEntry(entries, e);
  const task = previous.task ?? next.task;
  return { ...(task ? { task } : {}), entries };
}

/**
 * Adds one entry: an exact repeat is dropped (the first keeps its sequence number), a superseded entry is removed.
 *
 * @returns the new entry list
 */
export function addEntry(entries: readonly LedgerEntry[], e: LedgerEntry): LedgerEntry[] {
  if (entries.some((x) => norm(x.text) === norm(e.text))) return [...entries];
  const replaced = entries.filter((x) => supersedes(e, x));
  if (replaced.length === 0) return [...entries, e];
  const last = replaced[replaced.length - 1]!;
  // A replaced decision is named by its archive number, not restated: its old value in the context is a trap.
  const added = e.kind === 'decision' && last.seq !== null ? { ...e, was: `#${last.seq}` } : e;
  return [...entries.filter((x) => !replaced.includes(x)), added];
}

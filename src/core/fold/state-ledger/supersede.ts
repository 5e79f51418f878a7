/**
 * Whether a later ledger entry replaces an earlier one: the same subject with a new value, or an explicit withdrawal
 * of what the earlier one said. Kinds are compared first; then the subject words and names both state.
 */
import { showsNewStateOfRecord } from './json-record';
import { acronymWords, isStopWord, statementValues, stem, subjectWords } from './sentences';
import { namesItsSubject, sharedTypedSlot, typedScan } from './typed-values';
import { isClass, isOwnSetting } from './value-classes';
import type { EntryKind, LedgerEntry } from './types';

// Kinds that say what a value is: the wording picks one of them ("Keep the batch under 200." is a limit, "The batch
// size is 350 now." a fact, "let's switch the keys to camelCase" a decision), so an update may come in another one.
// Rules, questions and errors are only ever replaced by their own kind.
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

// Wording that says the speaker changed their mind, and wording that reports where a matter ended up: the strongest
// cues, shared by the patterns below at their different strengths.
const CHANGE_OF_MIND = String.raw`change of plans?|on (?:second thought|reflection)|changed? (?:my|our) minds?`;
const OUTCOME = String.raw`in the end|settled on`;

// Wording that says a statement changes an earlier one: "actually", "scratch that", "instead", "moved to",
// "rescheduled", "from now on", "is now", "renamed", "slipped", "rolled forward", "after all" …
const UPDATE_CUE = new RegExp(
  String.raw`\b(?:${CHANGE_OF_MIND}|${OUTCOME}|actually|scratch that|instead|no longer|any ?more|changed?|moved?|rescheduled|postponed|pushed (?:back|out)|brought\b.{0,30}\bforward|switch(?:ed)? to|replaced?|forget|from now on|going forward|from here on|now|new|updated?|correction|relaxed|raised|lowered|re-?prioriti[sz]ed|renam\w*|renumber\w*|swap(?:ped)?|slipped|rolled (?:forward|back)|re-?scop\w*|after all|i was wrong|lower the bar|re-?(?:ran|run|checked|profiled|tested|measured|booked|assigned|routed)|took over|taken over|handed (?:it )?over|left the (?:company|team|org\w*)|adopted|suits? (?:me|us) better|different direction|park (?:that|this|it))\b`,
  'i'
);

// Wording that withdraws what was said before, not only restates it. "actually", "instead" and "decided" are not
// among them: an agent narrates with them ("Instead of fixing the root cause, let me …") about anything at all.
const WITHDRAWAL = new RegExp(
  String.raw`\b(?:${CHANGE_OF_MIND}|scratch that|forget|re-?prioriti[sz]ed|correction|no longer|rescheduled|postponed|i was wrong|different direction|park (?:that|this|it)|(?:the )?plans? (?:has |have )?changed)\b`,
  'i'
);

// A word right after wording that drops it is what is withdrawn, not a new value: "forget the PDF", "not Thursday",
// "instead of Ghost".
const DROPPED =
  /\b(?:forget|not|no longer|instead of|rather than|drop|scrap|ditch)\s+(?:about\s+|the\s+|a\s+|an\s+|on\s+)?([^\s,.;:!?—–]+)/gi;

// A tool result's entry: its call, then what it showed ("Read(src/app.ts) → …").
const TOOL_RESULT = /^[\w.:-]+\([^)]*\) → /;

// Of those, wording that names a thing it drops: "not" and "no longer" negate a verb as often ("no longer needed").
const DROPS_A_THING = /^(?:forget|instead of|rather than|drop|scrap|ditch)\b/i;

/**
 * The words `text` drops (see {@link DROPPED}), lower-cased.
 *
 * @param things only those a verb of dropping names (see {@link DROPS_A_THING})
 * @returns the words
 */
function droppedWords(text: string, things = false): Set<string> {
  const found = [...text.matchAll(DROPPED)].filter((m) => !things || DROPS_A_THING.test(m[0]));
  return new Set(found.map((m) => (m[1] ?? '').toLowerCase()));
}

// Units of time and measure: counts of unrelated things share them ("30 days before renewal", "3 days of matching").
const MEASURE = /^(?:second|minute|hour|day|week|month|year|time|percent|byte|kilobyte|megabyte|gigabyte|terabyte)s?$/;

/**
 * The units of each number a statement states, when they are words and not a measure ("120 beta testers" →
 * beta, tester, "450 enrolled clinics" → enroll, clinic): a sign such as % or ms, or a unit of time, is shared by counts
 * of unrelated things.
 *
 * @returns number → units (stemmed), lower-cased
 */
function numberUnits(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const unitWord = (w: string | undefined): string[] => {
    const x = (w ?? '').toLowerCase();
    return x.length >= 3 && !isStopWord(x) && !MEASURE.test(x) ? [stem(x)] : [];
  };
  for (const m of text.matchAll(/(?<![\w.])([$€£]?\d[\d,.]*\d|[$€£]?\d)\s+([a-z]+)(?:\s+([a-z]+))?/gi)) {
    const units = [...unitWord(m[2]), ...unitWord(m[3])];
    if (units.length > 0) out.set((m[1] ?? '').toLowerCase(), units);
  }
  return out;
}

/** @returns whether both state a count of the same unit, the older one's number gone from the newer one */
function sameUnitCount(newer: string, older: string): boolean {
  const n = numberUnits(newer);
  const units = new Set([...n.values()].flat());
  return [...numberUnits(older)].some(([num, us]) => !n.has(num) && us.some((u) => units.has(u)));
}

/**
 * The shape of a value: a path or address, an e-mail, an identifier, a number (a date, an amount, a time), or a name.
 *
 * @returns the shape
 */
function valueShape(v: string): string {
  if (/[/\\]|:\/\//.test(v)) return 'path';
  if (v.includes('@')) return 'email';
  if ((/\d/.test(v) && /[_-]/.test(v) && /[a-z]/i.test(v)) || /[a-z0-9]_[a-z0-9]/i.test(v)) return 'id';
  if (/\d/.test(v)) return 'number';
  return 'name';
}

/** How a newer entry replaces an older one: on most of its subject, only by filling its slot, or not at all. */
export type Replacement = 'strict' | 'slot' | 'no';

/**
 * How `newer` replaces `older`.
 *
 * `strict`: a comparable kind (the same, or both stated values), at least half the subject words and names of
 * `older` (two, unless it has two or fewer) making at least 15% of those of `newer`, and a value of `older` that
 * `newer` no longer has. Worded as a change ({@link UPDATE_CUE}), a third of the older one's subject words is enough
 * (two when the older one states no value, which it may then have), and it may be a rule replacing a stated value other
 * than what a tool showed ("Send me the update by email." → "Let's move the update to Slack instead, I never check my
 * inbox."; "the goal for the sprint is a prototype" → "re-scope: the goal for the sprint is only the design doc").
 *
 * `slot`: it fills the same slot on less: a count of the same unit ("450 enrolled clinics" → "380 clinics"); a
 * withdrawal ({@link WITHDRAWAL}) that drops a word of `older` ("forget the import, the priority is …") or shares two of
 * its subject words; a change that shares a third of the subject words `older` keeps once its names that `newer` no
 * longer states are left out, with a new value of the same shape (on one shared word, only when `newer` states at
 * most two values); a change of a typed value on one subject word ({@link typedSlot}: "the offsite dinner may cost
 * $1,200" → "finance approved a bigger offsite, up to $2,000"). A withdrawal on one shared word alone never replaces:
 * agents and users say "instead" and "now" about everything.
 *
 * @returns `strict`, `slot` or `no`
 */
export function replacement(newer: LedgerEntry, older: LedgerEntry): Replacement {
  const updatable = (e: LedgerEntry): boolean => e.kind !== 'question' && e.kind !== 'error' && e.status === undefined;
  if (!updatable(newer) || !updatable(older)) return 'no';
  // What a tool showed replaces only what a tool showed: its call's paths and names share words with anything at all
  // ("Edit(/home/me/projects/app/router.ex) → …" is not about "the GCP project").
  if (TOOL_RESULT.test(newer.text) && !TOOL_RESULT.test(older.text)) return 'no';
  // Of a tool result, what it showed is compared, not its call: two results of one tool share the call's words.
  const said = (e: LedgerEntry): string => e.text.replace(TOOL_RESULT, '');
  const [newText, oldText] = [said(newer), said(older)];
  // Of two JSON records a tool showed, the later replaces the earlier only as a new state of the same record, whatever
  // words they share: two customers read one after the other share every key.
  if (TOOL_RESULT.test(newer.text) && TOOL_RESULT.test(older.text)) {
    const record = showsNewStateOfRecord(newText, oldText);
    if (record !== undefined) return record ? 'slot' : 'no';
  }
  const cue = UPDATE_CUE.test(newText);
  const kinds =
    sameKind(newer.kind, older.kind) ||
    (cue && newer.kind === 'rule' && VALUE_KINDS.has(older.kind) && older.kind !== 'observation');
  if (!kinds) return 'no';
  const dropped = droppedWords(newText);
  const newValues = new Set(
    statementValues(newText)
      .map((v) => v.toLowerCase())
      .filter((v) => !dropped.has(v))
  );
  const oldValues = statementValues(oldText).map((v) => v.toLowerCase());
  // A name both state is part of the subject ("Stay on Python 3.9" / "we can target Python 3.11 now").
  const names = (t: string): string[] =>
    statementValues(t)
      .filter((v) => !/\d/.test(v))
      .map((v) => v.toLowerCase());
  const a = [...new Set([...subjectWords(oldText), ...names(oldText)])];
  const b = new Set([...subjectWords(newText), ...names(newText)]);
  // Most of what the older statement was about, said again: a later statement is often longer ("Heads up, we failed
  // over last night — the production database host is now pg-replica-02 …").
  // Names are compared by their stem too: "GPU quota" and "128 GPUs" name one thing.
  const bStems = new Set([...b].map(stem));
  // An acronym of one names the words the other spells out ("MAU" / "monthly active users").
  const common =
    a.filter((w) => bStems.has(stem(w))).length + acronymWords(newText, oldText) + acronymWords(oldText, newText);
  const changed = oldValues.some((v) => !newValues.has(v));
  const gone = new Set(oldValues.filter((v) => !newValues.has(v)).map(valueShape));
  const sameShape = [...newValues].some((v) => gone.has(valueShape(v)));
  // A statement with no value is replaced on two shared subject words; a value by a new one, of the same shape when
  // only one subject word is shared ("the vendor meeting is Thursday" → "the vendor rescheduled to Monday", not
  // "now rebuild the vendor bundle with 4 workers").
  const asChange = (shared: number): boolean =>
    oldValues.length === 0 ? shared >= 2 : shared >= 2 ? newValues.size > 0 && gone.size > 0 : sameShape;
  // Not a change of value, it may still withdraw what the older one said ("I was wrong earlier; …"): see `slot`.
  if (cue && common >= Math.max(1, Math.ceil(a.length / 3)) && asChange(common)) return 'strict';
  const most =
    common >= Math.max(1, Math.min(2, Math.ceil(a.length / 2))) && common / a.length >= 0.5 && common / b.size >= 0.15;
  if (most && newValues.size > 0 && oldValues.length > 0 && changed) return 'strict';
  // What a tool showed or the assistant found is replaced on its subject only: its call's name and argument are
  // words any two results of that tool share.
  if ([newer, older].some((e) => e.kind === 'observation' || TOOL_RESULT.test(e.text))) return 'no';
  // The older one's names the newer one no longer states are the value that changed, not its subject.
  const kept = a.filter((w) => !oldValues.includes(w) || newValues.has(w));
  const olderWords = new Set([...a, ...oldValues]);
  const withdrawn = [...droppedWords(newText, true)].some((w) => olderWords.has(w) || olderWords.has(stem(w)));
  // A change of one value: a statement whose names all went (words in capitals) is not one slot.
  const goneNames = a.length - kept.length;
  const slot =
    (newer.kind === older.kind && sameUnitCount(newText, oldText)) ||
    (WITHDRAWAL.test(newText) && (withdrawn || common >= 2)) ||
    (cue &&
      goneNames <= 2 &&
      kept.length >= 2 &&
      common >= Math.ceil(kept.length / 3) &&
      // On one shared word, only a short update: one stating many values is about something else.
      (common >= 2 || newValues.size <= 2) &&
      asChange(common)) ||
    typedSlot(newText, oldText, cue);
  return slot ? 'slot' : 'no';
}

// Beside a value of the same type on the same subject, wording that says the value moved: the verbs of changing an
// amount, a limit, a booking or a version, and the phrases that report an outcome ("in the end", "turns out").
const TYPED_CHANGE = new RegExp(
  String.raw`\b(?:${OUTCOME}|approved|extended|shortened|increased|decreased|reduced|bumped|upgraded|downgraded|tightened|loosened|revised|re-?ran|re-?checked|re-?booked|rebooked|failed over|took over|migrated|went with|decided|turns? out|stretch(?:ed)? to|go up to|up to|down to|extend\w*|moved? (?:up|down)|cut to|anymore)\b`,
  'i'
);

// Wording that switches a setting to another value of its class: "switch to German from here on", "do them in bash
// instead", "we adopted four spaces".
const SWITCH = new RegExp(
  String.raw`\b(?:${CHANGE_OF_MIND}|${OUTCOME}|switch\w*\b.{0,40}?\bto|from (?:now|here) on|going forward|instead|rather|adopted|went with|moved (?:to|over)|migrated|re-?booked|swap\w*|replaced?|no longer|any ?more|suits? (?:me|us) better|changing)\b`,
  'i'
);

const SHORT_VERBS = new Set(
  'get got add set put run ran let see saw try fix say ask bet buy pay cut hit end lot day way off yet due new old own'.split(
    ' '
  )
);

/**
 * Whether `newer` fills `older`'s typed slot: a value of one type (an amount, a size, a duration in one unit, a
 * version of one named thing …, see {@link sharedTypedSlot}) in place of the older one's, linked by the name the type
 * carries or by a subject word of the clause that states the older value, and worded as a change.
 *
 * @param cue whether `newer` is worded as a change ({@link UPDATE_CUE})
 * @returns whether the newer statement fills the older one's typed slot
 */
function typedSlot(newText: string, oldText: string, cue: boolean): boolean {
  const type = sharedTypedSlot(newText, oldText);
  if (type === undefined || !(cue || TYPED_CHANGE.test(newText))) return false;
  if (namesItsSubject(type)) return true;
  // A class ties only by wording that switches ("now" and "new" are said beside anything); the language and register
  // of replies are a setting of their own, any other class is a slot of what the clause names ("the output as CSV" is
  // not "the JSON keys").
  if (isClass(type) && !SWITCH.test(newText)) return false;
  if (isOwnSetting(type)) return true;
  // Subject words beside the values (a unit is the value's: "30 days" and "3 days" share no subject), not the short
  // verbs said of anything ("get", "add", "set"); a short noun names a thing ("pods", "the API").
  const words = (t: string): Set<string> =>
    new Set(subjectWords(typedScan(t).rest).filter((w) => w.length >= 4 || (w.length === 3 && !SHORT_VERBS.has(w))));
  // Of the older statement, the clause that states the value: "refunds over $500, those go through finance" is not
  // about finance's budget.
  const clause = oldText.split(/[,;:.!?—–()]+\s|\s[-—–]\s/).find((c) => sharedTypedSlot(newText, c) === type);
  const older = words(clause ?? oldText);
  return [...words(newText)].some((w) => older.has(w));
}

/**
 * True when `newer` replaces `older` (see {@link replacement}).
 *
 * @returns whether `newer` replaces `older`
 */
export function supersedes(newer: LedgerEntry, older: LedgerEntry): boolean {
  return replacement(newer, older) !== 'no';
}

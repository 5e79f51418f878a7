/**
 * Spending a fold's room on the ledger by priority, never by uniform cuts: rules and hard constraints first, then the
 * task and its state (goals, open errors), decisions, facts with values and identifiers, preferences, and the rest of
 * what the user said. Every entry first gets its smallest pointer (a few subject words and its archive number); then,
 * tier by tier, entries become whole, or their full pointer when whole does not fit. Entries are dropped only when
 * not even every smallest pointer fits, the least binding and oldest first, and the result says so.
 */
import { asPointer } from './pointer-entry';
import { entryLine, LEDGER_TITLE, renderLedger, renderTask } from './render';
import { statementValues } from './sentences';
import { KIND_HEADING, KIND_ORDER } from './types';
import type { LedgerEntry, StateLedger } from './types';

/** Options of {@link fitLedger}. */
export interface FitLedgerOptions {
  /** Room for the task section and the ledger together, tokens by `count`. */
  maxTokens: number;
  /** The task's room, at most (a longer task keeps its first whole sentences). @default Infinity */
  taskTokens?: number;
  /**
   * The room the least binding tiers (what tool results showed, what was said with no value) may take, at most: they
   * are what a fold of a busy session has most of, and they must not make its summary large. @default `maxTokens`
   */
  softTokens?: number;
  count: (text: string) => number;
}

/** What {@link fitLedger} kept. */
export interface FittedLedger {
  /** The ledger as it is printed: entries whole, or pointers, in their order. */
  ledger: StateLedger;
  /** The task section and the ledger section, as printed ("" each when empty). */
  task: string;
  body: string;
  /** Entries printed whole, as pointers, and dropped (the last only when not even their pointers fit). */
  whole: number;
  pointers: number;
  dropped: number;
  /** The task is printed whole (true when there is none). */
  taskWhole: boolean;
  /** A rule or hard constraint was dropped, or the task left out: the must-keep part did not fit. */
  mustKeepLost: boolean;
}

/** Words of the smallest pointer. */
const SMALLEST = 8;

/** The lowest tier (what repeats what the ledger or the call already says), and the first tier held to the soft room. */
const LOWEST = 6;
const SOFT_TIER = 5;

/**
 * The priority tier of an entry: 0 rules and constraints, 1 goals and open errors, 2 decisions, 3 facts (and other
 * statements of the user that carry a value), 4 preferences and the other statements of the user, 5 what tool
 * results showed and the assistant found, 6 what says nothing new (see {@link repeatsItself}).
 *
 * @returns the tier, lower is kept first
 */
export function entryTier(e: LedgerEntry): number {
  const tier = baseTier(e);
  return tier >= SOFT_TIER && repeatsItself(e) ? LOWEST : tier;
}

/**
 * An entry whose values its own call already states (`Edit(/a/b.py) → The file /a/b.py has been updated`), or that
 * holds no value and only a few words: the room goes to what the agent could not re-read from the call it made.
 *
 * @returns whether the entry says nothing the ledger must carry
 */
function repeatsItself(e: LedgerEntry): boolean {
  const arrow = e.text.indexOf(' → ');
  const call = arrow >= 0 ? e.text.slice(0, arrow).toLowerCase() : '';
  const shown = statementValues(arrow >= 0 ? e.text.slice(arrow + 3) : e.text);
  if (shown.length === 0) return e.kind === 'observation' || e.text.split(/\s+/).length < 6;
  return arrow >= 0 && shown.every((v) => call.includes(v.toLowerCase()));
}

/**
 * How much an entry states that its own call does not: its distinct values (numbers, identifiers, names, quoted
 * spans) past the call's text. What a tool result or the assistant said with one value says less than a line of five.
 *
 * @returns the count
 */
export function ownValues(e: LedgerEntry): number {
  const arrow = e.text.indexOf(' → ');
  const call = arrow >= 0 ? e.text.slice(0, arrow).toLowerCase() : '';
  const shown = statementValues(arrow >= 0 ? e.text.slice(arrow + 3) : e.text).map((v) => v.toLowerCase());
  return new Set(shown.filter((v) => !call.includes(v))).size;
}

/**
 * The room the least binding entries of `ledger` (what tools showed, what the assistant found, what repeats itself)
 * take printed whole.
 *
 * @returns tokens by `count`, one per line included
 */
export function softTokens(ledger: StateLedger, count: (text: string) => number): number {
  return ledger.entries.filter((e) => entryTier(e) >= SOFT_TIER).reduce((n, e) => n + count(entryLine(e)) + 1, 0);
}

function baseTier(e: LedgerEntry): number {
  switch (e.kind) {
    case 'rule':
    case 'constraint':
      return 0;
    case 'goal':
    case 'error':
      return 1;
    case 'decision':
      return 2;
    case 'fact':
      return 3;
    case 'preference':
      return 4;
    case 'observation':
      return 5;
    default:
      // What the user said in a short message addresses the agent (a rule in words no list foresaw, an aim, a wish):
      // it ranks above what a tool showed.
      return statementValues(e.text).some((v) => /[\d/@_#]/.test(v) || v.length > 3) ? 3 : 4;
  }
}

/**
 * Fits the task and the ledger into `maxTokens`.
 *
 * @returns the printed ledger and what it kept; the texts are within `maxTokens` by `count` whenever the title and one
 *   smallest pointer fit at all
 */
export function fitLedger(ledger: StateLedger, options: FitLedgerOptions): FittedLedger {
  const { count, maxTokens } = options;
  const cost = (e: LedgerEntry): number => count(entryLine(e)) + 1;
  // Forms of each entry: smallest pointer, full pointer, whole (an entry already a pointer has no whole form).
  const forms = ledger.entries.map((e) => {
    const small = asPointer(e, SMALLEST);
    const full = e.pointer ? e : asPointer(e);
    return [small, full, ...(e.pointer ? [] : [e])];
  });
  const chosen = forms.map(() => 0);
  const kept = ledger.entries.map(() => true);
  const headings = (): number => {
    const kinds = new Set(ledger.entries.filter((_, i) => kept[i]).map((e) => e.kind));
    let n = kinds.size > 0 ? count(LEDGER_TITLE) + 3 : 0;
    for (const k of kinds) n += count(KIND_HEADING[k]) + 1;
    return n;
  };
  let used = 0;
  forms.forEach((f) => (used += cost(f[0]!)));
  // The task's smallest form (its first words and a pointer) is reserved with the entries.
  const taskText = (chars: number): string => renderTask(ledger.task, chars);
  let taskChars = 40;
  let taskCost = ledger.task ? count(taskText(taskChars)) + 2 : 0;
  const total = (): number => used + taskCost + headings();
  // Not even every smallest pointer fits: drop the least binding, oldest first; the task goes before the rules.
  // Within a tier, what says least goes first (fewest values of its own), then the oldest.
  const order = ledger.entries
    .map((e, i) => ({ i, tier: entryTier(e), said: ownValues(e) }))
    .sort((a, b) => b.tier - a.tier || (a.tier >= SOFT_TIER ? a.said - b.said : 0) || a.i - b.i);
  let dropped = 0;
  for (const { i, tier } of order) {
    if (total() <= maxTokens) break;
    if (tier === 0 && taskCost > 0) {
      taskCost = 0;
      if (total() <= maxTokens) break;
    }
    kept[i] = false;
    used -= cost(forms[i]![0]!);
    dropped += 1;
  }
  if (total() > maxTokens) taskCost = 0;
  const soft = Math.min(options.softTokens ?? maxTokens, maxTokens);
  // What the user said is the user's, with or without a value: only what tools showed and the assistant found (and
  // what repeats itself) shares the soft room.
  const isSoft = (i: number): boolean => entryTier(ledger.entries[i]!) >= SOFT_TIER;
  let softUsed = 0;
  forms.forEach((f, i) => (softUsed += kept[i] && isSoft(i) ? cost(f[0]!) : 0));
  for (const { i } of order) {
    if (softUsed <= soft) break;
    if (!kept[i] || !isSoft(i)) continue;
    kept[i] = false;
    used -= cost(forms[i]![0]!);
    softUsed -= cost(forms[i]![0]!);
    dropped += 1;
  }
  const taskLost = ledger.task !== undefined && taskCost === 0;
  const mustKeepLost = taskLost || ledger.entries.some((e, i) => !kept[i] && entryTier(e) === 0);
  const upgrade = (i: number, to: number): boolean => {
    const f = forms[i]!;
    if (to >= f.length || to <= chosen[i]!) return false;
    const delta = cost(f[to]!) - cost(f[chosen[i]!]!);
    if (total() + delta > maxTokens || (isSoft(i) && softUsed + delta > soft)) return false;
    used += delta;
    if (isSoft(i)) softUsed += delta;
    chosen[i] = to;
    return true;
  };
  const byTier = (tier: number): number[] =>
    ledger.entries.map((_, i) => i).filter((i) => kept[i] && entryTier(ledger.entries[i]!) === tier);
  // The task's share caps its text, not the section heading around it.
  const headingCost = ledger.task ? count(renderTask({ ...ledger.task, text: '' })) : 0;
  const growTask = (capTokens: number): void => {
    if (!ledger.task || taskLost) return;
    const room = maxTokens - total() + taskCost;
    const textRoom = Math.min(capTokens, room - headingCost);
    // Characters from tokens, checked by counting: ~3 characters a token is pessimistic for prose.
    for (let chars = Math.max(taskChars, textRoom * 4); chars > taskChars; chars = Math.floor(chars * 0.8)) {
      const c = count(taskText(chars)) + 2;
      if (c <= room && c - headingCost <= capTokens) {
        taskChars = chars;
        taskCost = c;
        return;
      }
    }
  };
  // An entry that binds (a rule, a limit, a goal, a decision, a fact, a preference) is not shortened while what a
  // tool showed or an aside keeps even its pointer: those go first, the least informative and oldest first.
  const evictFiller = (): boolean => {
    const i = order.find(({ i: k, tier }) => tier >= SOFT_TIER && kept[k])?.i;
    if (i === undefined) return false;
    kept[i] = false;
    used -= cost(forms[i]![chosen[i]!]!);
    softUsed -= cost(forms[i]![chosen[i]!]!);
    dropped += 1;
    return true;
  };
  for (let tier = 0; tier <= LOWEST; tier++) {
    const ids = byTier(tier);
    for (const i of ids) {
      while (!upgrade(i, 2) && tier < SOFT_TIER && evictFiller());
      if (chosen[i] !== 2) upgrade(i, 1);
    }
    if (tier === 0) growTask(options.taskTokens ?? Infinity);
  }
  // The task never grows past its share: a long task's binding statements are entries already.
  growTask(options.taskTokens ?? Infinity);
  const printed: StateLedger = {
    ...(ledger.task && taskCost > 0 ? { task: ledger.task } : {}),
    // In print order, so that what is returned is exactly what the printed ledger reads back as.
    entries: KIND_ORDER.flatMap((k) => forms.flatMap((f, i) => (kept[i] && f[0]!.kind === k ? [f[chosen[i]!]!] : []))),
  };
  const task = taskCost > 0 ? taskText(taskChars) : '';
  const whole = printed.entries.filter((e) => !e.pointer).length;
  return {
    ledger: printed,
    task,
    body: renderLedger(printed),
    whole,
    taskWhole: !ledger.task || task === renderTask(ledger.task),
    pointers: printed.entries.length - whole,
    dropped,
    mustKeepLost,
  };
}

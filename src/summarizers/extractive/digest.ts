/**
 * The extractive summary: a deterministic summary written by code, for when no model is reachable or wanted. It is
 * built around the state ledger: the task (the first user request) verbatim, then the ledger carried across folds,
 * then a compact narrative (the assistant's notes without filler, one line per distinct tool action).
 *
 * It always fits its cap: the narrative goes first (carried lines of earlier summaries, then the oldest actions and
 * notes); the task and the ledger are then fitted by priority (`fitLedger`: rules and limits whole first, then the
 * task, goals, decisions, facts, preferences, the rest), each entry whole or a pointer keeping its subject and archive
 * number, never a clause cut in the middle.
 */
import type { Item } from '../../core/messages/types';
import { buildFoldLedger, fitLedger, softTokens } from '../../core/fold/state-ledger';
import type { CarriedLedger, LedgerEntry, StateLedger } from '../../core/fold/state-ledger';
import { actionLine, collectActions } from './actions';
import type { Count } from './fit';
import { clipToTokens, takeWithin } from './fit';
import { FOCUS_SHARE, focusSection, mentionsFocus } from './focus';
import { assistantNotes } from './narrative';

/** Options of {@link buildDigest}. */
export interface DigestOptions {
  /** Hard cap of the whole summary, tokens. */
  maxTokens: number;
  /** The size the narrative fills the summary up to (task and ledger included), tokens. @default `maxTokens` */
  narrativeTokens?: number;
  /** Cap of the task kept verbatim, tokens, before the degrade order clips it. @default none */
  taskTokens?: number;
  /** Clip of a tool action's key argument, characters. @default 120 */
  actionArgClip?: number;
  /** Archive sequence number of each item, by position. */
  seqs?: readonly (number | null)[];
  /**
   * A `compactNow` focus: the statements mentioning one of its words (3+ letters) get a section after the task (at
   * most `FOCUS_SHARE` of `maxTokens`), and narrative lines mentioning them are kept before the others.
   */
  focus?: string;
  /** The ledger carried from the last fold (see `buildFoldLedger`). */
  state?: CarriedLedger;
  /**
   * The most room the soft entries earlier summaries carried keep, tokens: past it they share the usual soft room.
   * @default no bound
   */
  carriedSoftTokens?: number;
  count: Count;
}

/** The room of the least binding entries (see `fitLedger`'s `softTokens`), as a share of the summary's usual size. */
export const SOFT_SHARE = 0.9;

const TITLES = {
  notes: 'Assistant notes, in order (filler removed):',
  actions: 'Tool actions, in order (tool: key argument):',
  carried: 'Earlier narrative, carried over:',
} as const;

// Lines of an earlier extractive summary that are structure, not narrative.
const STRUCTURE =
  /^(?:- \(\d+ earlier line|Extractive (?:summary|digest) of |Identifiers from the folded part|(?:Assistant notes|Tool actions|Earlier narrative|User requests|Earlier summary|Errors seen|Open items)\b.*:$)/;

function section(title: string, lines: readonly string[]): string {
  return lines.length > 0 ? `${title}\n${lines.join('\n')}` : '';
}

/**
 * Newest-first selection within `room` tokens (lines `preferred` says yes to first, newest first among them),
 * printed in order, with a count of what was left out.
 */
function newest(
  lines: readonly string[],
  room: number,
  count: Count,
  preferred: (line: string) => boolean = () => false
): string[] {
  if (lines.length === 0 || room <= 0) return [];
  const omittedLine = (n: number): string => `- (${n} earlier line(s) not listed; see the archive)`;
  const reserve = count(omittedLine(lines.length)) + 1;
  const order = lines.map((_, i) => lines.length - 1 - i);
  const ranked = [...order.filter((i) => preferred(lines[i]!)), ...order.filter((i) => !preferred(lines[i]!))];
  const taken = takeWithin(
    ranked.map((i) => lines[i]!),
    room - reserve,
    count
  ).taken.length;
  const kept = ranked
    .slice(0, taken)
    .sort((a, b) => a - b)
    .map((i) => lines[i]!);
  const omitted = lines.length - kept.length;
  if (kept.length === 0) return [];
  return omitted > 0 ? [omittedLine(omitted), ...kept] : kept;
}

/**
 * Builds the extractive summary of the items to fold (a previous summary among them is merged, never stacked).
 *
 * @returns the summary text ("" when the items hold nothing to summarise), at most `maxTokens` by `count`
 */
export function buildDigest(items: readonly Item[], options: DigestOptions): string {
  return writeDigest(items, options).text;
}

/** What {@link writeDigest} wrote. */
export interface WrittenDigest {
  /** The summary text ("" when the items hold nothing to summarise), at most `maxTokens`. */
  text: string;
  /** The merged ledger it printed from, every entry whole (what a caller with state carries). */
  ledger: StateLedger;
  /** A rule or hard constraint was left out, or the task: `maxTokens` was too small for the must-keep part. */
  mustKeepLost: boolean;
  /** Entries a later one replaced while merging. */
  replaced: LedgerEntry[];
}

/**
 * {@link buildDigest}, with the merged ledger it printed from and whether its must-keep part fitted.
 *
 * @returns the summary text, the ledger and `mustKeepLost`
 */
export function writeDigest(items: readonly Item[], options: DigestOptions): WrittenDigest {
  const { count, maxTokens } = options;
  const argClip = options.actionArgClip ?? 120;
  const positions = items.map((_, i) => i).filter((i) => items[i]!.role !== 'instructions');
  const folded = positions.map((i) => items[i]!);
  const seqs = options.seqs ? positions.map((i) => options.seqs![i] ?? null) : undefined;
  const known = (seqs ?? []).filter((s): s is number => s !== null);
  const range = known.length > 0 ? ` (archive #${Math.min(...known)}–#${Math.max(...known)})` : '';
  const header = `Extractive summary of ${folded.length} earlier message(s)${range}, written by code without a model.`;
  const { ledger, previous, carried, replaced } = buildFoldLedger(folded, seqs, options.state);

  const join = (parts: readonly string[]): string => parts.filter((p) => p).join('\n\n');
  const focused = options.focus
    ? focusSection(folded, seqs, options.focus, Math.floor(FOCUS_SHARE * maxTokens), count)
    : '';
  const fitted = fitLedger(ledger, {
    maxTokens: maxTokens - count(header) - 2 - (focused ? count(focused) + 2 : 0),
    // What tool results showed and the assistant found take at most SOFT_SHARE of the summary's usual size: larger, a
    // busy fold's summary would pass 15% of what it stands for. The usual size follows the tokens this fold takes in,
    // where an earlier summary counts at its own small size, not at the size of what it stands for: so what earlier
    // summaries carried keeps its room, or every fold would cut the room of what they carry to a tenth.
    softTokens: Math.max(
      Math.floor(SOFT_SHARE * Math.min(options.narrativeTokens ?? maxTokens, maxTokens)),
      Math.min(softTokens(previous, count), options.carriedSoftTokens ?? Infinity)
    ),
    ...(options.taskTokens !== undefined ? { taskTokens: options.taskTokens } : {}),
    count,
  });
  const core = join([header, fitted.task, focused, fitted.body]);
  const { mustKeepLost } = fitted;
  if (count(core) > maxTokens)
    return { text: clipToTokens(core, maxTokens, count), ledger, mustKeepLost: true, replaced };
  // The narrative is the first thing to go: none at all once the task or an entry had to be shortened.
  if (fitted.pointers > 0 || fitted.dropped > 0 || !fitted.taskWhole)
    return { text: core, ledger, mustKeepLost, replaced };

  // The narrative fills the summary up to the narrative cap (the summary's usual size), newest first: notes half,
  // actions the rest, carried lines last. A ledger larger than that cap leaves it no room.
  let room = Math.min(options.narrativeTokens ?? maxTokens, maxTokens) - count(core) - 2;
  const focus = mentionsFocus(options.focus);
  const pick = (lines: readonly string[], within: number): string[] => newest(lines, within, count, focus);
  const noteLines = pick(assistantNotes(folded, 400), Math.floor(room / 2) - count(TITLES.notes) - 2);
  room -= noteLines.length > 0 ? count(section(TITLES.notes, noteLines)) + 2 : 0;
  const actionLines = pick(collectActions(folded, argClip).map(actionLine), room - count(TITLES.actions) - 2);
  room -= actionLines.length > 0 ? count(section(TITLES.actions, actionLines)) + 2 : 0;
  const carriedLines = pick(
    carried.filter((l) => l.trim() && !STRUCTURE.test(l.trim())),
    room - count(TITLES.carried) - 2
  );
  let parts = [
    core,
    section(TITLES.carried, carriedLines),
    section(TITLES.notes, noteLines),
    section(TITLES.actions, actionLines),
  ];
  // Token counts of joined text can exceed the sum of its parts by a little: drop narrative sections until it fits.
  while (count(join(parts)) > maxTokens && parts.length > 1) parts = parts.slice(0, -1);
  const text = join(parts);
  return { text: folded.length > 0 ? text : '', ledger, mustKeepLost, replaced };
}

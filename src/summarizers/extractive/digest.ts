/**
 * The extractive digest: a deterministic summary written by code, for when no model is reachable or wanted. It keeps
 * what a model summary most often loses — the user's own words and the exact names of things — and gives up on what
 * only a model can do: judging which reasoning mattered and saying it briefly. Bounded by a token cap that every
 * section shares; unused room of one section passes to the next.
 */
import { clip, oneLine } from '../../core/fold/clip';
import { SUMMARY_MARKER } from '../../core/messages/summary-marker';
import type { Item } from '../../core/messages/types';
import { actionLine, collectActions } from './actions';
import { collectErrors } from './errors';
import type { Count } from './fit';
import { clipToTokens, takeWithin } from './fit';
import { openItems } from './open-items';

/** Options of {@link buildDigest}. */
export interface DigestOptions {
  /** Total cap, tokens. */
  maxTokens: number;
  /** Cap of the user's requests. @default 40% of `maxTokens` */
  userTokens?: number;
  /** Clip of a tool action's key argument, characters. @default 120 */
  actionArgClip?: number;
  count: Count;
}

// Shares of the cap for the other sections, in filling order; room a section leaves passes to the next one.
const SHARES = { summary: 0.25, open: 0.08, errors: 0.1, notes: 0.3 } as const;

// Narration of the next tool call ("Let me read the file."): the action line already says it.
const NARRATION = /^(?:now,?\s+)?(?:let me|let's|i'll|i will|i need to|next,? i)\b/i;

function userRequests(items: readonly Item[], cap: number, count: Count): string[] {
  const lines: string[] = [];
  let left = cap;
  for (const item of [...items].reverse()) {
    if (item.role !== 'user' || !item.text.trim()) continue;
    const line = `- ${item.text.trim()}`;
    const cost = count(line) + 1;
    if (cost <= left) {
      lines.push(line);
      left -= cost;
      continue;
    }
    // The first request that does not fit is cut at the cap (Codex-style), and older ones are left out.
    const cut = clipToTokens(line, left - 1, count);
    if (cut.length > 2) lines.push(cut);
    break;
  }
  return lines;
}

function assistantNotes(items: readonly Item[], cap: number, count: Count): string[] {
  const notes = items
    .filter((i) => i.role === 'assistant' && i.text.trim())
    .map((i) => oneLine(i.text))
    .filter((t) => !(NARRATION.test(t) && t.length < 160))
    .map((t) => `- ${clip(t, 600)}`);
  // The newest notes carry the current state: take from the end, print in order.
  const { taken } = takeWithin([...notes].reverse(), cap, count);
  return taken.reverse();
}

function section(title: string, lines: readonly string[]): string {
  return lines.length > 0 ? `${title}\n${lines.join('\n')}` : '';
}

/** The body of a previous summary: its marker line (`[Summary of the earlier conversation: …]`) is not content. */
function previousSummary(items: readonly Item[]): string {
  return items
    .filter((i) => i.role === 'summary' && i.text.trim())
    .map((i) => {
      const t = i.text.trim();
      return t.startsWith(SUMMARY_MARKER) ? t.slice(t.indexOf('\n') + 1 || t.length).trim() : t;
    })
    .filter((t) => t)
    .join('\n\n');
}

const TITLES = {
  users: 'User requests, newest first, verbatim:',
  summary: 'Earlier summary, carried over:',
  notes: 'Assistant notes (decisions and state), in order:',
  actions: 'Tool actions, in order (tool: key argument):',
  errors: 'Errors seen:',
  open: 'Open items:',
} as const;

/**
 * Builds the digest of the items to fold.
 *
 * @returns the digest text ("" when the items hold nothing to digest)
 */
export function buildDigest(items: readonly Item[], options: DigestOptions): string {
  const { count, maxTokens } = options;
  const argClip = options.actionArgClip ?? 120;
  const folded = items.filter((i) => i.role !== 'instructions');
  const header = `Extractive digest of ${folded.length} earlier message(s), written by code without a model.`;
  let left = maxTokens - count(header) - 1;
  let carry = 0;
  const cost = (lines: readonly string[]): number => lines.reduce((n, l) => n + count(l) + 1, 0);
  // A section's title costs only when the section has lines; its blank separator line costs one more.
  const titleCost = (title: string): number => count(title) + 2;
  const allow = (title: string, cap: number): number => Math.max(0, Math.min(left, cap) - titleCost(title));
  const spend = (title: string, cap: number, lines: readonly string[]): void => {
    const used = lines.length > 0 ? cost(lines) + titleCost(title) : 0;
    carry = Math.max(0, Math.min(left, cap) - used);
    left -= used;
  };
  const share = (s: number): number => Math.floor(maxTokens * s) + carry;

  const userCap = options.userTokens ?? Math.floor(maxTokens * 0.4);
  const users = userRequests(folded, allow(TITLES.users, userCap), count);
  spend(TITLES.users, userCap, users);
  carry = 0;

  const previous = previousSummary(folded);
  const summaryCap = share(SHARES.summary);
  const summaryRoom = allow(TITLES.summary, summaryCap);
  const summaryLines = previous ? [clipToTokens(previous, summaryRoom - 1, count)].filter((x) => x) : [];
  spend(TITLES.summary, summaryCap, summaryLines);

  const openCap = share(SHARES.open);
  const open = takeWithin(openItems(folded, argClip), allow(TITLES.open, openCap), count).taken;
  spend(TITLES.open, openCap, open);

  const errorCap = share(SHARES.errors);
  const errorLines = collectErrors(folded, 160).map((e) => `- ${e.tool}: ${e.line}`);
  // The latest errors are the ones that may still be unresolved.
  const errors = takeWithin([...errorLines].reverse(), allow(TITLES.errors, errorCap), count).taken.reverse();
  spend(TITLES.errors, errorCap, errors);

  const notesCap = share(SHARES.notes);
  const notes = assistantNotes(folded, allow(TITLES.notes, notesCap), count);
  spend(TITLES.notes, notesCap, notes);

  // Tool actions take what is left, newest first; the count of the rest is stated.
  const all = collectActions(folded, argClip).map(actionLine);
  const omittedLine = (n: number): string => `- (${n} earlier distinct action(s) not listed)`;
  const room = allow(TITLES.actions, left) - (count(omittedLine(all.length)) + 1);
  const kept = takeWithin([...all].reverse(), room, count).taken.reverse();
  const omitted = all.length - kept.length;
  const actionLines = omitted > 0 && kept.length > 0 ? [omittedLine(omitted), ...kept] : kept;

  const body = [
    section(TITLES.users, users),
    section(TITLES.summary, summaryLines),
    section(TITLES.notes, notes),
    section(TITLES.actions, actionLines),
    section(TITLES.errors, errors),
    section(TITLES.open, open),
  ].filter((x) => x);
  return body.length > 0 ? [header, ...body].join('\n\n') : '';
}

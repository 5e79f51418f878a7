/**
 * Pinned messages: what the caller marks to stay verbatim through every fold (not the planner's keep-verbatim
 * selector, `plan.pin`, which they are handed to at each fold).
 *
 * - `pin: true` on an appended user, system or developer message: the flag is stripped (the model never sees it, the
 *   archive stores the message without it) and the live entry is marked pinned; every fold keeps it verbatim after the
 *   summary (the conversation adds it to the keep-verbatim selector), so it leaves the context only by `rewind`.
 * - `settings.rules` (strings): one rules element right after the leading instructions, in the conversation's format
 *   (chat `system`, Responses `developer`, typed-message `instructions`). It is an instructions item, so folds keep it in front,
 *   and it sits in the prompt's stable prefix (system prompt + rules), which a provider's prompt cache reuses across
 *   folds; it changes only when `configure` replaces the rules.
 *
 * Both count against the budget like any kept message; together they may take at most a quarter of it, so a fold can
 * always bring the context under its trigger (an append or `configure` past that is refused, nothing stored).
 */
import type { MessageFormat } from '../../core/messages/types';
import type { AppendInput } from '../../contract/definitions';
import type { LiveEntry } from './live-entry';

/** Share of the budget that pinned messages and rules may take together. */
export const MAX_PINNED_SHARE = 0.25;

/** Uid prefix of the rules element in the live context (`rules.<version>`). */
const RULES_UID = 'rules.';

/** First line of the rules element. */
export const RULES_TITLE = 'Rules for this conversation (kept verbatim, whatever is summarised):';

/** @returns true when an append carries a `pin` field on any message. */
export function hasPinFlag(input: AppendInput): boolean {
  return Array.isArray(input?.messages) && input.messages.some((m) => isRecord(m) && 'pin' in m);
}

/**
 * Strips the `pin` fields of an append.
 * @returns the input with copies of the flagged messages (without `pin`), the positions that had a `pin` field, and
 *   those pinned with `true`.
 */
export function splitPinFlags(input: AppendInput): {
  input: AppendInput;
  flagged: Set<number>;
  pinned: Set<number>;
} {
  const pinned = new Set<number>();
  const flagged = new Set<number>();
  const messages = input.messages.map((m, i) => {
    if (!isRecord(m) || !('pin' in m)) return m;
    flagged.add(i);
    if (m.pin === true) pinned.add(i);
    const { pin: _pin, ...rest } = m;
    return rest;
  });
  return { input: { ...input, messages }, flagged, pinned };
}

/** @returns whether a live entry is the rules element. */
export function isRulesEntry(e: Pick<LiveEntry, 'uid'>): boolean {
  return e.uid.startsWith(RULES_UID);
}

/** @returns the tokens of pinned messages and the rules element in the live context. */
export function pinnedTokens(live: readonly LiveEntry[]): number {
  return live.reduce((sum, e) => sum + (e.pinned || isRulesEntry(e) ? e.tokens : 0), 0);
}

/**
 * @returns why pinned content of `tokens` does not fit `budget` (the quarter it may take), or undefined when it fits.
 */
export function pinnedBudgetProblem(tokens: number, budget: number): string | undefined {
  const limit = Math.floor(budget * MAX_PINNED_SHARE);
  if (tokens <= limit) return undefined;
  return `pinned messages and rules would take ${tokens} tokens, over the ${limit} they may take (a quarter of the budget of ${budget}): nothing was stored; unpin or shorten them, or raise the budget`;
}

/** @returns the indices of pinned messages in the live context (the planner keeps them verbatim). */
export function pinnedIndices(live: readonly LiveEntry[]): number[] {
  const out: number[] = [];
  live.forEach((e, i) => {
    if (e.pinned) out.push(i);
  });
  return out;
}

/** @returns the rules element's text: a title and one `- rule` line per rule. */
export function rulesText(rules: readonly string[]): string {
  return [RULES_TITLE, ...rules.map((r) => `- ${r.replace(/\n+/g, ' ')}`)].join('\n');
}

/** @returns the rules element in the conversation's format (an instructions item in each). */
export function rulesElement(format: MessageFormat, rules: readonly string[]): unknown {
  const text = rulesText(rules);
  if (format === 'responses') return { type: 'message', role: 'developer', content: text };
  if (format === 'typed') return { type: 'instructions', text };
  if (format === 'gemini') return { role: 'system', parts: [{ text }] };
  return { role: 'system', content: text };
}

/** Pinned messages and rules over their share of the budget (the caller maps it to its failure type). */
export class PinnedBudgetError extends Error {
  override readonly name = 'PinnedBudgetError';
}

/** The rules element to place, when the live context must change (see {@link prepareRules}). */
export interface PreparedRules {
  /** The element to hold; `null` removes the current one. */
  element: unknown;
  tokens: number;
}

/**
 * Checks that pinned messages and rules fit their share of the budget, and says whether the rules element must change.
 * Counts the rules element only when it is new or changed (one activity call).
 * @param addedPinned tokens of pinned messages about to be appended.
 * @returns the change, or `null` when the live context already holds the right element (or none is needed).
 * @throws PinnedBudgetError when pinned messages and rules would take more than a quarter of `budget`.
 */
export async function prepareRules(input: {
  live: readonly LiveEntry[];
  format: MessageFormat;
  rules: readonly string[];
  budget: number;
  addedPinned: number;
  count: (raw: unknown) => Promise<number>;
}): Promise<PreparedRules | null> {
  const current = input.live.find(isRulesEntry);
  const wanted = input.rules.length > 0 ? rulesElement(input.format, input.rules) : null;
  const same = current !== undefined && wanted !== null && JSON.stringify(current.raw) === JSON.stringify(wanted);
  const tokens = wanted === null ? 0 : same ? current.tokens : await input.count(wanted);
  const others = pinnedTokens(input.live) - (current?.tokens ?? 0);
  const problem = pinnedBudgetProblem(others + input.addedPinned + tokens, input.budget);
  if (problem) throw new PinnedBudgetError(problem);
  if (same || (current === undefined && wanted === null)) return null;
  return { element: wanted, tokens };
}

/**
 * Puts a prepared rules element in place: the current one leaves, the new one goes right after the leading
 * instructions with the uid `rules.<version>` (so the caller's mirror receives it as an insert).
 * @param isInstructions whether live entry i is an instructions item.
 * @returns nothing; the caller bumps the version.
 */
export function placeRules(
  live: LiveEntry[],
  prepared: PreparedRules,
  isInstructions: (index: number) => boolean,
  version: number
): void {
  const leading: boolean[] = live.map((_, i) => isInstructions(i));
  const at = live.findIndex(isRulesEntry);
  if (at >= 0) {
    live.splice(at, 1);
    leading.splice(at, 1);
  }
  if (prepared.element === null) return;
  let insertAt = 0;
  while (insertAt < live.length && leading[insertAt]) insertAt++;
  live.splice(insertAt, 0, {
    raw: prepared.element,
    tokens: prepared.tokens,
    uid: `${RULES_UID}${version}`,
    rev: 0,
    seq: null,
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Abandoned tool calls. A call without a result is pending only while it is the conversation's latest open work;
 * once a later user turn or a later assistant turn arrives, the agent has moved on (it was interrupted, the tool
 * crashed, the process restarted) and the call is abandoned. An abandoned call gets a synthetic "not run" result,
 * recorded like any message, so it pairs and folds like any call and result; a pending call is never folded.
 */
import { adapterFor } from './adapter-for-format';
import { answeredCalls } from './answers';
import { pairResults } from './pair';
import type { Item, MessageFormat } from './types';

/** A synthetic result to insert before position `at` of the messages it was computed for. */
export interface AbandonedCallResult {
  at: number;
  raw: unknown;
}

/**
 * True when item `later` shows the agent moved on from a call made by item `call`: a real user turn, or a later
 * assistant turn. Chat: any later assistant message (its API wants the results right after the calls). Responses,
 * where one model response is several items (message, reasoning, calls): an assistant item of a later append, or
 * one after a tool result that came after the call (the model was asked again).
 */
function movesOn(
  items: readonly Item[],
  call: number,
  later: Item,
  format: MessageFormat,
  appendedFrom: number
): boolean {
  if (later.turnStart) return true;
  if (later.role !== 'assistant') return false;
  if (format !== 'responses' || (call < appendedFrom && later.index >= appendedFrom)) return true;
  for (let k = call + 1; k < later.index; k++) if (items[k]!.role === 'tool') return true;
  return false;
}

/**
 * Where the result of a call made by item `at` goes: after the calling item, (Responses) the call items right after
 * it, and the run of results after them; then before any reasoning that opens the next turn (reasoning belongs to
 * the item after it).
 */
function resultPosition(items: readonly Item[], at: number, until: number, format: MessageFormat): number {
  let j = at + 1;
  if (format === 'responses') while (j < until && items[j]!.calls.length > 0) j++;
  while (j < until && items[j]!.role === 'tool') j++;
  return j;
}

/**
 * Finds the abandoned calls of a transcript and writes their "not run" results.
 * @param messages the raws, in order (a stored context followed by an append).
 * @param appendedFrom where the newest append starts in `messages` (its items are a later turn than stored ones).
 * @returns the results to insert, in order of position (several may share one `at`); empty when none is abandoned.
 * @throws TranscriptValidationError on a malformed element.
 */
export function abandonedCallResults(
  messages: readonly unknown[],
  format: MessageFormat,
  appendedFrom = messages.length
): AbandonedCallResult[] {
  const adapter = adapterFor(format);
  const items = messages.map((raw, i) => adapter.toItem(raw, i));
  pairResults(items, false);
  const answered = answeredCalls(items);
  const out: AbandonedCallResult[] = [];
  for (const item of items) {
    const open = item.calls.filter((_, c) => !answered.has(`${item.index}:${c}`));
    if (open.length === 0) continue;
    const next = items.find(
      (later) => later.index > item.index && movesOn(items, item.index, later, format, appendedFrom)
    );
    if (!next) continue; // still pending: the latest open work
    const at = resultPosition(items, item.index, next.index, format);
    for (const call of open) out.push({ at, raw: adapter.notRunResult(call) });
  }
  return out.sort((a, b) => a.at - b.at);
}

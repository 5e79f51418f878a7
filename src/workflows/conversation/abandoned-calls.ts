/**
 * Abandoned tool calls in the conversation workflow (issue 9, item 2): when an append shows the agent moved on from a
 * call that never got a result, a synthetic "not run" result is stored for it like any message (archived, counted,
 * sent, folded with its call). Without it one lost result blocked every later fold.
 */
import { abandonedCallResults, type AbandonedCallResult } from '../../core/messages/abandoned-calls';
import { unansweredCalls } from '../../core/messages/pair';
import type { Item } from '../../core/messages/types';
import type { StagedAppend } from './conversation-state';
import type { LiveEntry } from './live-entry';

/** An append with the synthetic results it brings. */
export interface AbandonedAnswers {
  /** The append with the results that belong among (or right before) its messages inserted in place. */
  staged: StagedAppend;
  /** Results that belong inside the stored context (reasoning after a call's results). */
  inLive: AbandonedCallResult[];
}

/**
 * Places the "not run" results of the calls that `staged` abandons.
 * @param live the stored context's entries (their raws are read only when a call in it is left open).
 * @param liveItems the stored context read in `staged.format` (the state's transcript), when it is in that format:
 *   with every call in it answered, only the new messages are read (see `abandonedResults`).
 * @returns `staged` itself when no call is abandoned.
 */
export function withAbandonedAnswers(
  live: readonly Pick<LiveEntry, 'raw'>[],
  staged: StagedAppend,
  liveItems?: readonly Item[]
): AbandonedAnswers {
  if (staged.messages.length === 0) return { staged, inLive: [] };
  const results = abandonedResults(live, staged, liveItems);
  if (results.length === 0) return { staged, inLive: [] };
  const inLive = results.filter((r) => r.at < live.length);
  const messages: unknown[] = [];
  const sentIndex: number[] = [];
  const place = (position: number): void => {
    for (const r of results) {
      if (r.at !== position) continue;
      messages.push(r.raw);
      sentIndex.push(-1); // not sent by the caller: its mirror receives it as an insert
    }
  };
  staged.messages.forEach((raw, i) => {
    place(live.length + i);
    messages.push(raw);
    sentIndex.push(staged.sentIndex[i]!);
  });
  place(live.length + staged.messages.length);
  return { staged: { ...staged, messages, sentIndex }, inLive };
}

/**
 * The abandoned calls' results for the stored context followed by the append. When every call of the stored context
 * is answered, the stored messages cannot change the answer (a result pairs with the nearest earlier *unanswered*
 * call, and a call is abandoned or placed by what comes after it), so only the new messages are read: an ordinary
 * step costs O(new messages), not a reading of the whole context.
 */
function abandonedResults(
  live: readonly Pick<LiveEntry, 'raw'>[],
  staged: StagedAppend,
  liveItems: readonly Item[] | undefined
): AbandonedCallResult[] {
  // The calls left open are remembered with the transcript (`unansweredCalls`): no reading of the stored context.
  if (liveItems && liveItems.length === live.length && unansweredCalls(liveItems).length === 0) {
    return abandonedCallResults(staged.messages, staged.format, 0).map((r) => ({ ...r, at: r.at + live.length }));
  }
  return abandonedCallResults([...live.map((e) => e.raw), ...staged.messages], staged.format, live.length);
}

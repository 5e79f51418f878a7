/**
 * Abandoned tool calls in the conversation workflow (issue 9, item 2): when an append shows the agent moved on from a
 * call that never got a result, a synthetic "not run" result is stored for it like any message (archived, counted,
 * sent, folded with its call). Without it one lost result blocked every later fold.
 */
import { abandonedCallResults, type AbandonedCallResult } from '../core/messages/abandoned-calls';
import type { StagedAppend } from './conversation-state';

/** An append with the synthetic results it brings. */
export interface AbandonedAnswers {
  /** The append with the results that belong among (or right before) its messages inserted in place. */
  staged: StagedAppend;
  /** Results that belong inside the stored context (reasoning after a call's results). */
  inLive: AbandonedCallResult[];
}

/**
 * Places the "not run" results of the calls that `staged` abandons.
 * @param live the stored context's raws.
 * @returns `staged` itself when no call is abandoned.
 */
export function withAbandonedAnswers(live: readonly unknown[], staged: StagedAppend): AbandonedAnswers {
  if (staged.messages.length === 0) return { staged, inLive: [] };
  const results = abandonedCallResults([...live, ...staged.messages], staged.format, live.length);
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

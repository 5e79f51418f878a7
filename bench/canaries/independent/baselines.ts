/**
 * The simple baselines the fold is measured beside, at the same budget: keep the tail (the newest messages that fit),
 * and a checklist extractor (every sentence of the dropped part that has a digit, a name, an identifier or a word of
 * obligation or preference, newest first within half the budget, then the tail).
 */
import type { TokenCounter } from '../../../src/tokens';

type Message = Record<string, unknown>;

const textOf = (m: Message): string => (typeof m.content === 'string' ? m.content : '');

/** The newest messages (system messages kept) within `budget`: @returns the messages and the index of the first kept */
export function keepTail(
  messages: readonly Message[],
  budget: number,
  counter: TokenCounter
): { messages: Message[]; from: number } {
  const counts = counter.countMessages([...messages], 'chat');
  let used = counter.replyPriming;
  messages.forEach((m, i) => (used += m.role === 'system' ? counts[i]! : 0));
  let from = messages.length;
  while (from > 0) {
    const m = messages[from - 1]!;
    if (m.role !== 'system' && used + counts[from - 1]! > budget) break;
    if (m.role !== 'system') used += counts[from - 1]!;
    from -= 1;
  }
  // A tool result is never kept without the call it answers.
  while (from < messages.length && messages[from]!.role === 'tool') from += 1;
  return { messages: [...messages.filter((m, i) => m.role === 'system' && i < from), ...messages.slice(from)], from };
}

const WORTH =
  /\d|[/@_#]|\s[A-Z][a-z]|\b(?:never|always|must|do not|don't|only|prefer|rather|please|deadline|limit|at most|at least|goal|need|should|avoid|no longer|instead|now)\b/i;

/** @returns the checklist sentences of `messages`, in order, deduplicated */
export function checklist(messages: readonly Message[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    for (const s of textOf(m).split(/(?<=[.!?])\s+|\n+/)) {
      const t = s.trim();
      if (t.length < 8 || t.length > 300 || !WORTH.test(t) || seen.has(t)) continue;
      seen.add(t);
      out.push(t);
    }
  }
  return out;
}

/** The checklist baseline: @returns a checklist message of the dropped part (within half the budget) and the tail */
export function checklistBaseline(messages: readonly Message[], budget: number, counter: TokenCounter): Message[] {
  const tail = keepTail(messages, Math.floor(budget / 2), counter);
  const lines = checklist(messages.slice(0, tail.from)).reverse();
  const room =
    budget - counter.countMessages(tail.messages, 'chat').reduce((a, b) => a + b, 0) - counter.replyPriming - 8;
  const kept: string[] = [];
  let used = 0;
  for (const l of lines) {
    const c = counter.countText(l) + 1;
    if (used + c > room) break;
    kept.push(l);
    used += c;
  }
  const system = tail.messages.filter((m) => m.role === 'system');
  const rest = tail.messages.filter((m) => m.role !== 'system');
  return [
    ...system,
    { role: 'user', content: `Checklist of earlier statements:\n${kept.reverse().join('\n')}` },
    ...rest,
  ];
}

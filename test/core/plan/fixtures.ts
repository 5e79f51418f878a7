/** Small chat-format conversation builders for the planning tests. */
import { normalize } from '../../../src/core/messages/normalize';
import type { Transcript } from '../../../src/core/messages/types';
import { planFold } from '../../../src/core/plan/plan';
import type { CompactionOptions } from '../../../src/core/plan/options';
import type { FoldPlan } from '../../../src/core/plan/types';

export type Msg = Record<string, unknown>;

export const sys = (text = 'rules'): Msg => ({ role: 'system', content: text });
export const user = (text: string): Msg => ({ role: 'user', content: text });
export const say = (text: string): Msg => ({ role: 'assistant', content: text });
export const calls = (...ids: string[]): Msg => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => ({ id, type: 'function', function: { name: id.split('#')[0], arguments: '{}' } })),
});
export const result = (id: string, text = `out ${id}`): Msg => ({ role: 'tool', tool_call_id: id, content: text });

/** Plans with every item costing `each` tokens (or the given per-item counts). */
export function plan(
  messages: Msg[],
  options: CompactionOptions,
  tokens?: number[] | number
): { plan: FoldPlan; t: Transcript } {
  const t = normalize(messages);
  const counts = Array.isArray(tokens) ? tokens : messages.map(() => tokens ?? 1);
  return { plan: planFold({ transcript: t, tokens: counts, options }), t };
}

/** The side of the cut each item is on after a fold: 'k' kept (instructions, pinned, tail) or 'f' folded. */
export function sides(p: FoldPlan, n: number): ('k' | 'f')[] {
  const kept = new Set(p.keep);
  return Array.from({ length: n }, (_, i) => (kept.has(i) ? 'k' : 'f'));
}

/**
 * Seed 001's fixture `session(n)`: each turn is a user ask; every even turn has a read_file call and its result; then an
 * answer.
 */
export function session(turns: number): Msg[] {
  const out: Msg[] = [];
  for (let k = 0; k < turns; k++) {
    out.push(user(`ask ${k}`));
    if (k % 2 === 0) {
      out.push(calls(`read_file#${k}`), result(`read_file#${k}`, `contents of file ${k}`));
    }
    out.push(say(`answer ${k}`));
  }
  return out;
}

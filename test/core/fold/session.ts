// Chat-format sessions of tool calls for the eviction tests.
import { normalize } from '../../../src/core/messages/normalize';
import type { Transcript } from '../../../src/core/messages/types';

export interface Call {
  name: string;
  args: Record<string, unknown>;
  /** The tool's output; a long default so every result is worth offloading. */
  output?: string | unknown[];
}

/** A chat transcript: one user turn, then one assistant message + tool result per call, then an answer. */
export function session(calls: Call[], turns = 1): { messages: Record<string, unknown>[]; transcript: Transcript } {
  const messages: Record<string, unknown>[] = [];
  let n = 0;
  const perTurn = Math.ceil(calls.length / turns);
  calls.forEach((c, i) => {
    if (i % perTurn === 0) messages.push({ role: 'user', content: `turn ${i / perTurn}` });
    const id = `call_${n++}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }],
    });
    messages.push({
      role: 'tool',
      tool_call_id: id,
      content: c.output ?? `${c.name} output ${i}\n${'line\n'.repeat(200)}`,
    });
  });
  messages.push({ role: 'assistant', content: 'done' });
  return { messages, transcript: normalize(messages, 'chat') };
}

/** The chat content of each element, for comparing before and after. */
export function contents(raws: unknown[]): unknown[] {
  return raws.map((r) => (r as { content?: unknown }).content);
}

export const read = (path: string, extra: Record<string, unknown> = {}): Call => ({
  name: 'read_file',
  args: { path, ...extra },
});
export const rg = (pattern: string): Call => ({ name: 'ripgrep', args: { pattern } });

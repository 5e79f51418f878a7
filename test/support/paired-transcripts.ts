/**
 * Random transcripts for the pairing properties: user turns, assistant turns with parallel tool calls and results,
 * in the chat and Anthropic formats, with call ids drawn from a few letters so ids repeat, calls stay open, results
 * answer twice or nothing, and the Anthropic turns answer several calls at once.
 */
import fc from 'fast-check';

/**
 * One step of a transcript: a user turn; an assistant turn with calls, followed by results for `answered` of them
 * (the last ones first when `reversed`); or stray results, for ids whatever was called.
 */
export type PairingStep =
  | { kind: 'user' }
  | { kind: 'assistant'; calls: string[]; answered: number; reversed: boolean }
  | { kind: 'results'; ids: string[] };

export type PairingFormat = 'chat' | 'anthropic';

const id = fc.constantFrom('a', 'b', 'c', 'd');

/** Steps: mostly assistant turns whose calls are answered, some left open, a few stray results. */
export const pairingSteps = (maxLength = 40): fc.Arbitrary<PairingStep[]> =>
  fc.array(
    fc.oneof(
      { weight: 2, arbitrary: fc.constant({ kind: 'user' as const }) },
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant('assistant' as const),
          calls: fc.array(id, { maxLength: 3 }),
          answered: fc.oneof({ weight: 3, arbitrary: fc.constant(3) }, fc.nat({ max: 2 })),
          reversed: fc.boolean(),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('results' as const),
          ids: fc.array(id, { minLength: 1, maxLength: 3 }),
        }),
      }
    ),
    { maxLength }
  );

/** Cut points into `n` messages (sorted, within 0..n), splitting it into appends. */
export const cutPoints = (): fc.Arbitrary<number[]> => fc.array(fc.nat({ max: 1000 }), { maxLength: 8 });

/** Splits `messages` at the cut points (taken modulo its length + 1). @returns the appends, the first possibly empty. */
export function appendsOf<T>(messages: readonly T[], cuts: readonly number[]): T[][] {
  const at = [...new Set(cuts.map((c) => c % (messages.length + 1)))].sort((a, b) => a - b);
  const bounds = [0, ...at.filter((c) => c > 0), messages.length];
  const out: T[][] = [];
  for (let k = 0; k + 1 < bounds.length; k++) out.push(messages.slice(bounds[k], bounds[k + 1]));
  return out.length > 0 ? out : [[]];
}

/** The messages of `steps` in `format`: a chat result is one `tool` message per id, an Anthropic one is one user turn. */
export function pairingMessages(steps: readonly PairingStep[], format: PairingFormat): unknown[] {
  const out: unknown[] = [];
  const results = (ids: readonly string[], n: number): void => {
    if (ids.length === 0) return;
    if (format === 'chat') for (const c of ids) out.push({ role: 'tool', tool_call_id: c, content: `out ${n}` });
    else
      out.push({
        role: 'user',
        content: ids.map((c) => ({ type: 'tool_result', tool_use_id: c, content: `out ${n}` })),
      });
  };
  steps.forEach((step, n) => {
    if (step.kind === 'user') {
      out.push({ role: 'user', content: `turn ${n}` });
    } else if (step.kind === 'results') {
      results(step.ids, n);
    } else {
      if (format === 'chat') {
        const calls = step.calls.map((c) => ({
          id: c,
          type: 'function',
          function: { name: `f${n}`, arguments: '{}' },
        }));
        out.push(
          calls.length > 0
            ? { role: 'assistant', content: null, tool_calls: calls }
            : { role: 'assistant', content: `reply ${n}` }
        );
      } else {
        const uses = step.calls.map((c) => ({ type: 'tool_use', id: c, name: `f${n}`, input: {} }));
        out.push({ role: 'assistant', content: [{ type: 'text', text: `reply ${n}` }, ...uses] });
      }
      const answered = step.calls.slice(0, step.answered);
      results(step.reversed ? answered.reverse() : answered, n);
    }
  });
  return out;
}

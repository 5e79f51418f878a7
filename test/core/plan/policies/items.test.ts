// Ports of seed 002's (agentturn) split tests, by name, over Responses items; every item costs 1 token, budget 1.
import { strict as assert } from 'node:assert';
import { normalize } from '../../../../src/core/messages/normalize';
import { TranscriptValidationError } from '../../../../src/core/messages/validate';
import { planFold } from '../../../../src/core/plan/plan';

const u = (t: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text: t }] });
const a = (t: string) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t }] });
const fc = (id: string) => ({ type: 'function_call', call_id: id, name: 'f', arguments: '{}' });
const out = (id: string) => ({ type: 'function_call_output', call_id: id, output: `r ${id}` });
const note = { type: 'app:note', text: 'harness note' };

function split(items: unknown[], keepLast: number): number {
  const t = normalize(items, 'responses');
  const p = planFold({
    transcript: t,
    tokens: items.map(() => 1),
    options: { budget: 1, policy: 'items', keepLast, minFoldTokens: 0 },
  });
  return p.fold ? p.split : 0;
}

describe('items policy (seed 002 split)', () => {
  describe('TestSplitKeepsCallsWithOutputs', () => {
    const cases: [string, unknown[], number, number][] = [
      ['the tail opens with an output', [u('q'), fc('a'), out('a'), a('x'), u('next')], 3, 1],
      ['keepLast past the start', [u('q'), fc('a'), out('a'), a('x'), u('next')], 10, 0],
      ['no output in the tail', [u('q'), fc('a'), out('a'), u('next'), a('x'), u('more')], 3, 3],
      ['an item between the call and its output', [u('q'), fc('a'), note, out('a'), a('x')], 3, 1],
      ['an output deeper in the tail', [u('q'), fc('a'), a('x'), u('y'), out('a')], 2, 1],
      ["parallel calls, the first one's output last", [u('q'), fc('a'), fc('b'), out('b'), out('a')], 2, 1],
      ['a move brings in an output of an earlier call', [u('q'), fc('a'), fc('b'), out('a'), out('b'), a('x')], 2, 1],
    ];
    for (const [name, items, keepLast, expected] of cases) {
      it(name, () => assert.equal(split(items, keepLast), expected));
    }
    it('an output whose call is not in the transcript (declared divergence: rejected as invalid input, seed 002 ignores it)', () => {
      assert.throws(
        () => normalize([u('q'), a('x'), out('ghost'), u('y'), a('z')], 'responses'),
        (e: unknown) => e instanceof TranscriptValidationError && e.kind === 'unknown-call' && e.index === 2
      );
    });
  });

  it('defaults to keeping the last 4 items', () => {
    const items = [u('1'), a('1'), u('2'), a('2'), u('3'), a('3'), u('4'), a('4')];
    assert.equal(split(items, 4), 4);
    const t = normalize(items, 'responses');
    const p = planFold({
      transcript: t,
      tokens: items.map(() => 1),
      options: { budget: 1, policy: 'items', minFoldTokens: 0 },
    });
    assert.equal(p.split, 4);
  });
});

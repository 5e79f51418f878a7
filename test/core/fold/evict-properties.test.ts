// Eviction on generated tool-heavy sessions: parallel calls, reused call ids, reads of the same files over and over
// with and without ranges, outputs short and long, in both OpenAI formats.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { evictStaleToolResults } from '../../../src/core/fold/evict';
import { isOffloaded, pointerFor, pointerText, readKey } from '../../../src/core/fold/pointer';
import { normalize } from '../../../src/core/messages/normalize';
import type { Transcript } from '../../../src/core/messages/types';

const file = fc.constantFrom('a.ts', 'b.ts', 'c.py');
const range = fc.option(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 4, max: 6 })), { nil: undefined });
const callArb = fc.oneof(
  fc.record({ name: fc.constant('read_file'), file, range }).map(({ name, file, range }) => ({
    name,
    args: range ? { path: file, start_line: range[0], end_line: range[1] } : { path: file },
  })),
  fc.record({ name: fc.constant('Grep'), args: fc.record({ pattern: fc.constantFrom('foo', 'bar') }) }),
  fc.record({ name: fc.constant('bash'), args: fc.record({ command: fc.constantFrom('ls', 'make test') }) }),
  fc.record({ name: fc.constant('lookup'), args: fc.record({ id: fc.integer({ min: 0, max: 9 }) }) })
);
const step = fc.record({
  calls: fc.array(fc.record({ call: callArb, size: fc.integer({ min: 0, max: 600 }) }), { minLength: 1, maxLength: 3 }),
  ids: fc.constantFrom('reuse', 'fresh'),
});
const session = fc.record({ steps: fc.array(step, { minLength: 1, maxLength: 14 }), responses: fc.boolean() });

type Session = typeof session extends fc.Arbitrary<infer T> ? T : never;

function build(s: Session): Transcript {
  const out: Record<string, unknown>[] = [];
  const user = (text: string) =>
    s.responses ? { type: 'message', role: 'user', content: text } : { role: 'user', content: text };
  out.push(user('go'));
  let n = 0;
  s.steps.forEach((st) => {
    const ids = st.calls.map((_, k) => (st.ids === 'reuse' ? `c${k}` : `id${n++}`));
    const body = (size: number, k: number) => `out ${k} `.padEnd(size, '.');
    if (s.responses) {
      st.calls.forEach((c, k) =>
        out.push({ type: 'function_call', call_id: ids[k], name: c.call.name, arguments: JSON.stringify(c.call.args) })
      );
      st.calls.forEach((c, k) => out.push({ type: 'function_call_output', call_id: ids[k], output: body(c.size, k) }));
    } else {
      out.push({
        role: 'assistant',
        content: null,
        tool_calls: st.calls.map((c, k) => ({
          id: ids[k],
          type: 'function',
          function: { name: c.call.name, arguments: JSON.stringify(c.call.args) },
        })),
      });
      st.calls.forEach((c, k) => out.push({ role: 'tool', tool_call_id: ids[k], content: body(c.size, k) }));
    }
  });
  return normalize(out, s.responses ? 'responses' : 'chat');
}

const input = fc.record({
  s: session,
  keepRecent: fc.integer({ min: 0, max: 6 }),
  hot: fc.subarray(['a.ts', 'b.ts', 'c.py']),
});

describe('core/fold/evict properties (fast-check)', () => {
  it('never removes, reorders or unpairs an element, changes only tool outputs, and is idempotent', () => {
    fc.assert(
      fc.property(input, ({ s, keepRecent, hot }) => {
        const t = build(s);
        const pinned = (p: string) => hot.includes(p);
        const { raws, offloaded } = evictStaleToolResults(t, { keepRecent, pinned });
        assert.equal(raws.length, t.items.length);
        const after = normalize(raws, t.format);
        const changed = new Set(offloaded.map((o) => o.index));
        after.items.forEach((item, i) => {
          const before = t.items[i]!;
          assert.deepEqual(item.answers, before.answers);
          assert.equal(item.role, before.role);
          if (!changed.has(i)) assert.equal(raws[i], before.raw);
          else assert.ok(before.role === 'tool' && isOffloaded(item.text) && item.text.length < before.text.length);
        });
        const again = evictStaleToolResults(after, { keepRecent, pinned });
        assert.deepEqual(again.offloaded, []);
      }),
      { numRuns: 300 }
    );
  });

  it('leaves no live read that a later live read supersedes, and keeps the newest result', () => {
    fc.assert(
      fc.property(input, ({ s, keepRecent, hot }) => {
        const t = build(s);
        const { raws } = evictStaleToolResults(t, { keepRecent, pinned: (p) => hot.includes(p) });
        const after = normalize(raws, t.format);
        const pointerOf = (index: number) => {
          const a = t.items[index]!.answers!;
          return pointerFor(t.items[a.itemIndex]!.calls[a.callIndex]);
        };
        // Outputs no longer than their pointer are never candidates, so only the others are weighed.
        const worth = (index: number) => t.items[index]!.text.length > pointerText(pointerOf(index)).length;
        const live = after.items.filter((it) => it.role === 'tool' && !isOffloaded(it.text) && worth(it.index));
        live.forEach((it, k) => {
          const p = pointerOf(it.index);
          if (p.kind !== 'file') return;
          for (const later of live.slice(k + 1)) {
            const q = pointerOf(later.index);
            if (q.kind !== 'file' || q.path !== p.path) continue;
            assert.ok(
              readKey(q) !== readKey(p) && q.range !== undefined,
              `live read ${it.index} superseded by ${later.index}`
            );
          }
        });
        // The newest result worth offloading is never offloaded while the window keeps at least one.
        const newest = [...t.items].reverse().find((it) => it.role === 'tool' && worth(it.index));
        if (newest && keepRecent > 0) assert.ok(!isOffloaded(after.items[newest.index]!.text), 'the newest is kept');
      }),
      { numRuns: 300 }
    );
  });
});

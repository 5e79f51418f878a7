import { strict as assert } from 'node:assert';
import { evictStaleToolResults, keepToolResultsFor } from '../../../src/core/fold/evict';
import { emptyHotPaths, noteTurn } from '../../../src/core/fold/hot-paths';
import { OFFLOAD_PREFIX, isOffloaded } from '../../../src/core/fold/pointer';
import { normalize } from '../../../src/core/messages/normalize';
import { contents, read, rg, session } from './session';

/** Indices of the tool results, in order. */
const resultIndices = (raws: unknown[]) =>
  raws.flatMap((r, i) => ((r as { role?: string }).role === 'tool' ? [i] : []));

describe('core/fold/evict', () => {
  it('TestEvictStaleToolResults: keeps the newest N, offloads the rest with a pointer naming the tool', () => {
    const { messages, transcript } = session([rg('alpha'), rg('beta'), rg('gamma'), rg('delta')]);
    const { raws, offloaded } = evictStaleToolResults(transcript, { keepRecent: 2 });
    const results = resultIndices(messages);
    assert.deepEqual(
      offloaded.map((o) => o.index),
      results.slice(0, 2)
    );
    for (const o of offloaded) {
      assert.equal(o.reason, 'stale');
      assert.equal(o.tool, 'ripgrep');
      const content = (raws[o.index] as { content: string }).content;
      assert.ok(content.startsWith(OFFLOAD_PREFIX) && content.includes('ripgrep'), content);
    }
    assert.ok((raws[results[0]!] as { content: string }).content.includes('"alpha"'));
    for (const i of results.slice(2)) assert.equal(raws[i], messages[i], 'kept results are untouched objects');
    assert.equal(evictStaleToolResults(normalize(raws, 'chat'), { keepRecent: 2 }).offloaded.length, 0);
  });

  it('anthropic: offloads a turn answering one call; keeps a turn answering several (one pointer names one call)', () => {
    const big = 'x '.repeat(2000);
    const use = (id: string, command: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command } });
    const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: big });
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [use('toolu_1', 'ls a'), use('toolu_2', 'ls b')] },
      { role: 'user', content: [result('toolu_1'), result('toolu_2')] },
      { role: 'assistant', content: [use('toolu_3', 'ls c')] },
      { role: 'user', content: [result('toolu_3')] },
      { role: 'assistant', content: 'done' },
    ];
    const { raws, offloaded } = evictStaleToolResults(normalize(messages, 'anthropic'), { keepRecent: 0 });
    assert.deepEqual(
      offloaded.map((o) => o.index),
      [4]
    );
    assert.equal(raws[2], messages[2], 'the two-result turn is untouched');
    const content = (raws[4] as { content: { content: string }[] }).content[0]!.content;
    assert.ok(content.startsWith(OFFLOAD_PREFIX) && content.includes('ls c'), content);
  });

  it('keepReminders: an offloaded output keeps its system reminders after the pointer (for the summarizer)', () => {
    const reminder = '<system-reminder>\nNever touch the prod database.\n</system-reminder>';
    const output = `${'line\n'.repeat(200)}${reminder}`;
    const { transcript } = session([{ ...rg('alpha'), output }, rg('beta')]);
    const kept = evictStaleToolResults(transcript, { keepRecent: 1, keepReminders: true });
    const plain = evictStaleToolResults(transcript, { keepRecent: 1 });
    const text = (r: unknown[]) => (r[kept.offloaded[0]!.index] as { content: string }).content;
    assert.ok(text(kept.raws).startsWith(OFFLOAD_PREFIX) && text(kept.raws).endsWith(reminder), text(kept.raws));
    assert.ok(!text(plain.raws).includes('system-reminder'), 'off by default: the live context is unchanged');
  });

  it('TestEvictOffloadsSupersededReads: an older read of a re-read file goes even inside the window', () => {
    const { messages, transcript } = session([read('x.go'), read('y.go'), read('x.go')]);
    const { offloaded } = evictStaleToolResults(transcript, { keepRecent: 3 });
    assert.deepEqual(
      offloaded.map((o) => [o.index, o.reason]),
      [[resultIndices(messages)[0], 'superseded']]
    );
  });

  it('TestSupersededReadsRangeAware: same key and later whole reads supersede, other ranges do not', () => {
    const cases: { name: string; calls: ReturnType<typeof read>[]; superseded: number[] }[] = [
      {
        name: 'two different ranges',
        calls: [read('a.ts', { start_line: 1, end_line: 10 }), read('a.ts', { start_line: 20, end_line: 30 })],
        superseded: [],
      },
      {
        name: 'the same range twice',
        calls: [read('a.ts', { start_line: 5, end_line: 9 }), read('a.ts', { start_line: 5, end_line: 9 })],
        superseded: [0],
      },
      {
        name: 'ranges, then the whole file',
        calls: [
          read('a.ts', { start_line: 1, end_line: 10 }),
          read('a.ts', { start_line: 20, end_line: 30 }),
          read('a.ts'),
        ],
        superseded: [0, 1],
      },
      {
        name: 'the whole file, then a range',
        calls: [read('a.ts'), read('a.ts', { start_line: 1, end_line: 10 })],
        superseded: [],
      },
      {
        name: 'another file of the same range',
        calls: [read('a.ts', { start_line: 1, end_line: 10 }), read('b.ts', { start_line: 1, end_line: 10 })],
        superseded: [],
      },
      {
        name: 'Claude Code offset/limit vs OpenHands view_range naming the same lines',
        calls: [
          { name: 'Read', args: { file_path: 'a.ts', offset: 11, limit: 10 } },
          { name: 'str_replace_editor', args: { command: 'view', path: 'a.ts', view_range: [11, 20] } },
        ],
        superseded: [0],
      },
    ];
    for (const c of cases) {
      const { messages, transcript } = session(c.calls);
      const results = resultIndices(messages);
      const { offloaded } = evictStaleToolResults(transcript, { keepRecent: 10 });
      assert.deepEqual(
        offloaded.map((o) => o.index),
        c.superseded.map((k) => results[k]),
        c.name
      );
    }
  });

  it('TestEvictKeepsPinnedHotPaths: the latest read of a hot path survives past the window', () => {
    const { messages, transcript } = session([read('hot.go'), read('cold.go'), rg('a'), rg('b'), rg('c')]);
    const results = resultIndices(messages);
    const pinned = (p: string) => p === 'hot.go';
    const { offloaded } = evictStaleToolResults(transcript, { keepRecent: 2, pinned });
    assert.deepEqual(
      offloaded.map((o) => o.index),
      [results[1], results[2]]
    );
    // The same through hot-path state: hot.go read twice in one turn.
    const hot = noteTurn(emptyHotPaths(), ['hot.go', 'hot.go']);
    assert.deepEqual(evictStaleToolResults(transcript, { keepRecent: 2, hotPaths: hot }).offloaded, offloaded);
    // Not hot: it goes too.
    assert.equal(evictStaleToolResults(transcript, { keepRecent: 2 }).offloaded.length, 3);
  });

  it('TestEvictStillDedupesSupersededHotReads: an older copy of a hot file is still offloaded', () => {
    const { messages, transcript } = session([read('hot.go'), rg('a'), read('hot.go'), rg('b'), rg('c')]);
    const results = resultIndices(messages);
    const { offloaded } = evictStaleToolResults(transcript, { keepRecent: 1, pinned: () => true });
    assert.deepEqual(
      offloaded.map((o) => [o.index, o.reason]),
      [
        [results[0], 'superseded'],
        [results[1], 'stale'],
        [results[3], 'stale'],
      ]
    );
  });

  it('TestEvictClearsStructuredPayload: every text part of an array output gives way to the pointer', () => {
    const parts = [
      { type: 'text', text: 'first part '.repeat(50) },
      { type: 'text', text: 'second part '.repeat(50) },
    ];
    const { messages, transcript } = session([{ name: 'ripgrep', args: { pattern: 'p' }, output: parts }, rg('q')]);
    const i = resultIndices(messages)[0]!;
    const { raws } = evictStaleToolResults(transcript, { keepRecent: 1 });
    const content = (raws[i] as { content: { type: string; text: string }[] }).content;
    assert.equal(content.length, 1);
    assert.ok(isOffloaded(content[0]!.text));
    assert.ok(!JSON.stringify(raws[i]).includes('part'), 'no trace of the old payload');
    assert.deepEqual(messages[i], { role: 'tool', tool_call_id: 'call_0', content: parts }, 'the input is not mutated');

    // The Responses form: a function_call_output's output.
    const resp = normalize(
      [
        { type: 'message', role: 'user', content: 'go' },
        { type: 'function_call', call_id: 'c1', name: 'Grep', arguments: '{"pattern":"x"}' },
        { type: 'function_call_output', call_id: 'c1', output: 'match\n'.repeat(100) },
        { type: 'function_call', call_id: 'c2', name: 'Grep', arguments: '{"pattern":"y"}' },
        { type: 'function_call_output', call_id: 'c2', output: 'match\n'.repeat(100) },
      ],
      'responses'
    );
    const out = evictStaleToolResults(resp, { keepRecent: 1 });
    assert.deepEqual(
      out.offloaded.map((o) => o.index),
      [2]
    );
    const output = (out.raws[2] as { output: string }).output;
    assert.ok(isOffloaded(output) && output.includes('"x"'), output);
  });

  it('TestEvictIdempotent: a second run over the output changes nothing', () => {
    const { transcript } = session(
      [read('a.go'), rg('x'), read('a.go', { start_line: 3, end_line: 9 }), read('b.go'), rg('y'), read('a.go')],
      2
    );
    const first = evictStaleToolResults(transcript, { keepRecent: 2, pinned: (p) => p === 'b.go' });
    assert.ok(first.offloaded.length > 0);
    const second = evictStaleToolResults(normalize(first.raws, 'chat'), { keepRecent: 2, pinned: (p) => p === 'b.go' });
    assert.deepEqual(second.offloaded, []);
    assert.deepEqual(second.raws, first.raws);
  });

  it('never removes or reorders an element and touches only tool results', () => {
    const { messages, transcript } = session([read('a'), rg('b'), { name: 'bash', args: { command: 'ls' } }], 1);
    const { raws } = evictStaleToolResults(transcript, { keepRecent: 0 });
    assert.equal(raws.length, messages.length);
    raws.forEach((r, i) => {
      const m = messages[i]!;
      if (m.role === 'tool') assert.deepEqual({ ...(r as object), content: null }, { ...m, content: null });
      else assert.equal(r, m);
    });
    assert.deepEqual(contents(raws).filter((c) => typeof c === 'string' && isOffloaded(c)).length, 3);
  });

  it('leaves an output shorter than its pointer alone and does not count it in the window', () => {
    const { messages, transcript } = session([
      rg('a'),
      { name: 'ripgrep', args: { pattern: 'b' }, output: 'none' },
      rg('c'),
    ]);
    const results = resultIndices(messages);
    const { offloaded } = evictStaleToolResults(transcript, { keepRecent: 1 });
    assert.deepEqual(
      offloaded.map((o) => o.index),
      [results[0]]
    );
  });

  it('keepShorterThan: a short result stays verbatim whatever its age (what the state ledger keeps, it must see)', () => {
    const status = `Service checkout-api: 14 replicas running in eu-west-1, ${'healthy '.repeat(12)}`.trim();
    const { messages, transcript } = session([
      { name: 'status', args: { service: 'checkout-api' }, output: status },
      rg('b'),
      rg('c'),
    ]);
    const results = resultIndices(messages);
    const without = evictStaleToolResults(transcript, { keepRecent: 1 }).offloaded.map((o) => o.index);
    assert.deepEqual(without, results.slice(0, 2), 'by age alone the status line goes');
    const { raws, offloaded } = evictStaleToolResults(transcript, { keepRecent: 1, keepShorterThan: 300 });
    assert.ok((messages[results[1]!]!.content as string).length > 300, 'the search output is long');
    assert.deepEqual(
      offloaded.map((o) => o.index),
      [results[1]]
    );
    assert.equal(raws[results[0]!], messages[results[0]!]);
  });

  it('reports what each offload saved', () => {
    const { messages, transcript } = session([rg('a'), rg('b')]);
    const tokens = messages.map((_, i) => i * 10);
    const [o] = evictStaleToolResults(transcript, { keepRecent: 1, tokens }).offloaded;
    const i = resultIndices(messages)[0]!;
    assert.equal(o!.originalChars, (messages[i]!.content as string).length);
    assert.equal(o!.originalTokens, i * 10);
  });

  it('defaults the window to keepToolResultsFor(budget), or 8', () => {
    const calls = Array.from({ length: 20 }, (_, i) => rg(`p${i}`));
    const { transcript } = session(calls);
    assert.equal(evictStaleToolResults(transcript).offloaded.length, 12);
    assert.equal(evictStaleToolResults(transcript, { budget: 150_000 }).offloaded.length, 5);
    assert.equal(evictStaleToolResults(transcript, { budget: 1_000_000 }).offloaded.length, 0);
  });

  it('TestKeepCountsScaleWithBudget: clamp(budget/10000, 8, 32)', () => {
    const table: [number, number][] = [
      [0, 8],
      [45_000, 8],
      [80_000, 8],
      [150_000, 15],
      [250_000, 25],
      [1_000_000, 32],
    ];
    for (const [budget, keep] of table) assert.equal(keepToolResultsFor(budget), keep, `budget ${budget}`);
  });
});

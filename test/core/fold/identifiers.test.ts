import assert from 'node:assert/strict';
import { collectIdentifiers, findIdentifiers } from '../../../src/core/fold/identifiers';
import { normalize } from '../../../src/core/messages/normalize';

const values = (text: string): string[] => findIdentifiers(text).map((o) => o.value);

describe('core/fold/identifiers', () => {
  it('finds paths, URLs, UUIDs, hashes, call ids, tickets, codes and quoted names', () => {
    const text = [
      'Edit /home/me/app/src/main.ts and lib/util.ex, then see https://example.com/docs/page?x=1.',
      'Commit 3f2a9c1d8e is on ticket ABC-123 (also #42). Session 123e4567-e89b-12d3-a456-426614174000.',
      'Call toolu_01AbCdEf9 returned; reservation ZFA04Y, order #W2378156, user mia_li_3668.',
      'The function `parseConfig` in config.yaml; mail ops@example.org.',
    ].join('\n');
    const v = values(text);
    for (const expected of [
      '/home/me/app/src/main.ts',
      'lib/util.ex',
      'https://example.com/docs/page?x=1',
      '3f2a9c1d8e',
      'ABC-123',
      '#42',
      '123e4567-e89b-12d3-a456-426614174000',
      'toolu_01AbCdEf9',
      'ZFA04Y',
      'W2378156',
      'mia_li_3668',
      'parseConfig',
      'config.yaml',
      'ops@example.org',
    ]) {
      assert.ok(v.includes(expected), `missing ${expected} in ${JSON.stringify(v)}`);
    }
  });

  it('does not take ordinary words, dates or prose slashes for identifiers', () => {
    const v = values('Use and/or the I/O layer on 2026-02-01T12:00:00, e.g. Enum.take with 1234567 items; deadbeef.');
    assert.deepEqual(v, []);
  });

  it('does not find a path inside a URL or hex inside a UUID twice', () => {
    const v = values('see https://a.example/x/y/z.ts and 123e4567-e89b-12d3-a456-426614174000');
    assert.deepEqual(v.sort(), ['123e4567-e89b-12d3-a456-426614174000', 'https://a.example/x/y/z.ts']);
  });

  it('attributes identifiers to their sources with counts and recency', () => {
    const t = normalize(
      [
        { role: 'user', content: 'Look at src/a.ts please' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"src/a.ts"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'imports src/b.ts' },
        { role: 'assistant', content: 'src/a.ts imports src/b.ts' },
      ],
      'chat'
    );
    const ids = collectIdentifiers(t.items);
    const a = ids.find((i) => i.value === 'src/a.ts');
    const b = ids.find((i) => i.value === 'src/b.ts');
    assert.deepEqual(a?.sources, ['user', 'assistant', 'toolArgs']);
    assert.equal(a?.count, 3);
    assert.equal(a?.lastIndex, 3);
    assert.deepEqual(b?.sources, ['assistant', 'toolResult']);
  });

  it('reads tool-call arguments through JSON escapes', () => {
    const t = normalize(
      [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'edit', arguments: JSON.stringify({ text: 'line one\n"src/quoted.ts"' }) },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
      'chat'
    );
    assert.ok(collectIdentifiers(t.items).some((i) => i.value === 'src/quoted.ts'));
  });
});

describe('core/fold/identifiers in an earlier summary', () => {
  it("does not take the summary's own archive numbers for identifiers, and keeps real tickets it quotes", () => {
    const summary = [
      '[Summary of the earlier conversation: archive #15–#43]',
      'Extractive summary of 9 earlier message(s) (archive #15–#43), written by code without a model.',
      'Task (the first user request, verbatim, archive #15):',
      '> Fix ticket #4411 and OPS-12.',
      '(the rest: archive #15)',
      'Rules:',
      '- [#16] Never touch #ops-prod.',
      '- [#29, pointer] Never reopen #812',
      '- [#30, next] close it',
      '- Shortened statement (→ #43)',
    ].join('\n');
    const ids = collectIdentifiers(
      normalize([{ role: 'user', content: summary }], 'chat').items.map((i) => ({ ...i, role: 'summary' as const }))
    );
    const v = ids.map((i) => i.value).sort();
    assert.deepEqual(v, ['#4411', '#812', 'OPS-12'].sort());
  });
});

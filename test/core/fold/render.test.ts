import assert from 'node:assert/strict';
import { clip, safePrefix } from '../../../src/core/fold/text-clip';
import { renderHead } from '../../../src/core/fold/render';
import { normalize } from '../../../src/core/messages/normalize';

describe('core/fold/render', () => {
  const head = normalize(
    [
      { role: 'system', content: 'SYSTEM_PROMPT_TEXT' },
      { role: 'user', content: 'Please fix the parser in src/parse.ts' },
      {
        role: 'assistant',
        content: 'Reading it first.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/parse.ts"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'X'.repeat(5000) },
      { role: 'assistant', content: 'The parser drops the last token; fixed.' },
    ],
    'chat'
  );

  it('keeps prose whole, puts each call on one line and clips tool output', () => {
    const out = renderHead(head.items);
    assert.match(out, /^User: Please fix the parser in src\/parse\.ts$/m);
    assert.match(out, /^Assistant: Reading it first\.$/m);
    assert.match(out, /^Assistant called read_file\(\{"path":"src\/parse\.ts"\}\)$/m);
    assert.match(out, /^Assistant: The parser drops the last token; fixed\.$/m);
    const result = out.split('\n').find((l) => l.includes('result of read_file'));
    assert.ok(result, out);
    assert.ok(result.length < 260, `result line is ${result.length} chars`);
    assert.ok(out.length < 2000, `rendered ${out.length} chars`);
  });

  it('leaves out instructions and reasoning', () => {
    const t = normalize(
      [
        { role: 'developer', content: 'SECRET_INSTRUCTIONS' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'PRIVATE_THOUGHTS' }] },
        { role: 'user', content: 'hello' },
      ],
      'responses'
    );
    const out = renderHead(t.items);
    assert.equal(out, 'User: hello');
  });

  it('clips prose at the configured length', () => {
    const long = normalize([{ role: 'user', content: 'a'.repeat(100) }], 'chat');
    const out = renderHead(long.items, { proseClip: 20 });
    assert.equal(out, `User: ${'a'.repeat(19)}…`);
  });

  it('never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(10); // 20 code units
    for (let max = 0; max <= 21; max++) {
      const p = safePrefix(emoji, max);
      assert.ok(!/[\uD800-\uDBFF]$/.test(p), `cut at ${max} leaves a lone high surrogate`);
      const c = clip(emoji, max);
      assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(c), `clip at ${max}: ${JSON.stringify(c)}`);
    }
  });
});

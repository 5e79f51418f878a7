import { strict as assert } from 'node:assert';
import { countText, createTokenCounter, DEFAULT_SAFETY_FACTOR, TokenInputError } from '../../src/tokens';

describe('createTokenCounter', () => {
  it('reports encoding and exactness for the model', () => {
    const a = createTokenCounter({ model: 'gpt-4o' });
    assert.deepEqual([a.encoding, a.exact, a.replyPriming], ['o200k_base', true, 3]);
    const b = createTokenCounter({ model: 'claude-sonnet-4' });
    assert.deepEqual([b.encoding, b.exact], ['o200k_base', false]);
  });

  it('scales inexact models by the safety factor, rounding up', () => {
    const exact = createTokenCounter({ model: 'gpt-4o' });
    const claude = createTokenCounter({ model: 'claude-sonnet-4' });
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    assert.equal(claude.countText(text), Math.ceil(exact.countText(text) * DEFAULT_SAFETY_FACTOR));
    const m = { role: 'user', content: text };
    assert.equal(claude.countMessage(m, 'chat'), Math.ceil(exact.countMessage(m, 'chat') * DEFAULT_SAFETY_FACTOR));
    const custom = createTokenCounter({ model: 'llama-3', safetyFactor: 1.5 });
    assert.equal(custom.countText(text), Math.ceil(exact.countText(text) * 1.5));
  });

  it('caches per-message counts by content and stays within cacheSize', () => {
    const counter = createTokenCounter({ model: 'gpt-4o', cacheSize: 5 });
    const messages = Array.from({ length: 8 }, (_, i) => ({ role: 'user', content: `message number ${i}` }));
    const first = counter.countMessages(messages, 'chat');
    const again = counter.countMessages(
      messages.slice(5).map((m) => ({ ...m })),
      'chat'
    );
    assert.deepEqual(again, first.slice(5));
    const stats = counter.cacheStats();
    assert.equal(stats.size, 5);
    assert.equal(stats.hits, 3);
    assert.equal(stats.misses, 8);
  });

  it('counts text with the same raw count as countText, and cl100k for gpt-4', () => {
    const text = 'Temporal workflows are deterministic.';
    assert.equal(createTokenCounter({ model: 'gpt-4o' }).countText(text), countText(text, 'o200k_base'));
    assert.equal(createTokenCounter({ model: 'gpt-4' }).countText(text), countText(text, 'cl100k_base'));
  });

  it('names the index of a malformed message', () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    assert.throws(
      () => counter.countMessages([{ role: 'user', content: 'ok' }, 42], 'chat'),
      (err: unknown) => err instanceof TokenInputError && /^messages\[1\]: /.test(err.message)
    );
  });

  it('counts special-token strings in content as ordinary text instead of throwing', () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    assert.ok(counter.countText('before <|endoftext|> after') > 5);
  });

  it('rejects invalid options', () => {
    assert.throws(() => createTokenCounter({ model: 'x', safetyFactor: 0.5 }), RangeError);
    assert.throws(() => createTokenCounter({ model: 'x', cacheSize: -1 }), RangeError);
  });
});

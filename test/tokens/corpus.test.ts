import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import { countText, createTokenCounter, priceMessage } from '../../src/tokens';
import { pieceCounterFor } from '../../src/tokens/count-text';
import { corpusConversations, corpusDir } from '../support/corpus';

/** Every text the corpus prices: content, tool-call names and arguments. */
function texts(message: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (typeof message.content === 'string') out.push(message.content);
  for (const call of (message.tool_calls as { function: { name: string; arguments: string } }[] | undefined) ?? []) {
    out.push(call.function.name, call.function.arguments);
  }
  return out;
}

// Subpath types need node16 resolution; the CJS build exports the ranks object itself.
type Ranks = ConstructorParameters<typeof Tiktoken>[0];
/* eslint-disable @typescript-eslint/no-require-imports */
const o200k = require('js-tiktoken/ranks/o200k_base') as Ranks;
const cl100k = require('js-tiktoken/ranks/cl100k_base') as Ranks;
/* eslint-enable @typescript-eslint/no-require-imports */

/** js-tiktoken is quadratic on one long piece; skip texts holding a piece longer than this. */
const JS_TIKTOKEN_MAX_PIECE = 4096;

describe('corpus cross-check against js-tiktoken', function () {
  this.timeout(120_000);
  for (const [name, ranks] of [
    ['o200k_base', o200k],
    ['cl100k_base', cl100k],
  ] as const) {
    it(`gives identical raw counts for every content, name and arguments text (${name})`, () => {
      const tiktoken = new Tiktoken(ranks);
      const split = pieceCounterFor(name).splitRegex;
      let compared = 0;
      let skipped = 0;
      for (const conv of corpusConversations()) {
        conv.messages.forEach((m, i) => {
          for (const text of texts(m)) {
            if ([...text.matchAll(split)].some((p) => p[0].length > JS_TIKTOKEN_MAX_PIECE)) {
              skipped++;
              continue;
            }
            assert.equal(countText(text, name), tiktoken.encode(text, [], []).length, `${conv.name} message ${i}`);
            compared++;
          }
        });
      }
      assert.ok(compared > 2000, `compared only ${compared}`);
      assert.ok(skipped < 5, `skipped ${skipped}`);
    });
  }
});

describe('corpus README token table', () => {
  // Rows: | file | messages | tokens | largest message |, numbers with thin-space thousands separators.
  const rows = readFileSync(join(corpusDir, 'README.md'), 'utf8')
    .split('\n')
    .map((line) => line.split('|').map((c) => c.trim()))
    .filter((c) => c.length === 6 && /^\d[\d ]*$/.test(c[2]!) && /^\d[\d ]*$/.test(c[3]!))
    .map((c) => ({
      name: c[1]!,
      messages: Number(c[2]!.replace(/ /g, '')),
      tokens: Number(c[3]!.replace(/ /g, '')),
      largest: Number(c[4]!.replace(/ /g, '')),
    }));

  it('has all twelve conversations', () => {
    assert.equal(rows.length, 12);
  });

  const count = (t: string): number => countText(t, 'o200k_base');
  for (const row of rows) {
    it(`reproduces ${row.name}: ${row.tokens} tokens, largest message ${row.largest}`, () => {
      const conv = corpusConversations().find((c) => c.name === row.name);
      assert.ok(conv, `no conversation ${row.name}`);
      assert.equal(conv.messages.length, row.messages);
      // The README prices 3 per message + content + tool-call names and arguments (+3 priming), without role tokens.
      const prices = conv.messages.map((m) => priceMessage(m, 'chat', count));
      const readmeTotal = prices.reduce((a, p) => a + p.envelope + p.body, 0) + 3;
      assert.equal(readmeTotal, row.tokens);
      assert.equal(Math.max(...prices.map((p) => p.envelope + p.body)), row.largest);
      // The counter adds the role's tokens (cookbook §6: every value is encoded), one token per corpus role.
      const counter = createTokenCounter({ model: 'gpt-4o' });
      const total = counter.countMessages(conv.messages, 'chat').reduce((a, b) => a + b, 0) + counter.replyPriming;
      assert.equal(total, row.tokens + prices.reduce((a, p) => a + p.role, 0));
      assert.equal(total - row.tokens, row.messages);
    });
  }
});

import { strict as assert } from 'node:assert';
import {
  ANTHROPIC_IMAGE_MAX_TOKENS,
  ANTHROPIC_PDF_PAGE_TOKENS,
  anthropicImageTokens,
} from '../../src/tokens/anthropic-tokens';
import { createTokenCounter } from '../../src/tokens';
import { priceMessage } from '../../src/tokens/message-tokens';

const counter = createTokenCounter({ model: 'claude-sonnet-4-5' });
/** Raw price (before the counter's safety factor), text counted as one token per word so sums are easy to read. */
const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;
const price = (content: unknown): number => {
  const p = priceMessage({ role: 'user', content }, 'anthropic', words);
  return p.envelope + p.role + p.body;
};
const text = price([{ type: 'text', text: 'x' }]);

/** A PNG header of the given size (the pixels are never read). */
function png(width: number, height: number, padding = 0): string {
  const b = Buffer.alloc(33 + padding);
  b.writeUInt32BE(0x89504e47, 0);
  b.writeUInt32BE(0x0d0a1a0a, 4);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b.toString('base64');
}
const image = (data: string) => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } });

describe('anthropic pricing (vision and PDF guides)', () => {
  it('prices an image at width × height / 750 after fitting the long edge in 1 568 px', () => {
    assert.equal(anthropicImageTokens(1092, 1092), 1590, "the guide's 1092×1092 example: about 1 590");
    assert.equal(anthropicImageTokens(200, 200), 54, "the guide's 200×200 example: about 54");
    assert.equal(anthropicImageTokens(3136, 1568), anthropicImageTokens(1568, 784), 'scaled down first');
    assert.equal(price([{ type: 'text', text: 'x' }, image(png(1092, 1092))]) - text, 1590);
  });

  it('never prices base64 data as text; an unreadable image costs the cap', () => {
    assert.equal(price([image(png(100, 100, 300_000))]), price([image(png(100, 100))]));
    const url = { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } };
    assert.equal(price([{ type: 'text', text: 'x' }, url]) - text, ANTHROPIC_IMAGE_MAX_TOKENS);
  });

  it('prices a PDF per page, a text document by its text, tool blocks and unknown blocks by what they carry', () => {
    const pdf = Buffer.from('%PDF-1.4 /Type /Pages /Type /Page x /Type /Page y /Type/Page z').toString('base64');
    const doc = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } };
    assert.equal(price([{ type: 'text', text: 'x' }, doc]) - text, 3 * ANTHROPIC_PDF_PAGE_TOKENS);
    const prose = 'the quick brown fox jumps over the lazy dog '.repeat(20);
    const textDoc = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: prose } };
    assert.ok(Math.abs(price([textDoc]) - price(prose)) <= 2);
    const result = { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: prose }] };
    assert.ok(price([result]) >= price(prose));
    assert.ok(price([{ type: 'brand_new_block', payload: prose }]) >= price(prose), 'unknown blocks are priced');
    const call = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: prose } }],
    };
    assert.ok(counter.countMessage(call, 'anthropic') >= price(prose));
  });
});

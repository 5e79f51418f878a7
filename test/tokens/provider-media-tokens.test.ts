import { strict as assert } from 'node:assert';
import { countText, priceMessage } from '../../src/tokens';
import { IMAGE_TOKENS, FILE_TOKENS, TOKENS_PER_MESSAGE } from '../../src/tokens/wire-constants';

const count = (s: string): number => countText(s, 'o200k_base');
const body = (m: unknown, format: 'gemini' | 'ai-sdk'): number => priceMessage(m, format, count).body;

/** Base64 of a PNG whose header says `width` × `height`, padded to about 27 KB of base64. */
function pngBase64(width: number, height: number): string {
  const bytes = Buffer.alloc(20_033, 7);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  [width, height].forEach((v, k) => bytes.writeUInt32BE(v, 16 + 4 * k));
  return bytes.toString('base64');
}
const inline = (width: number, height: number) => ({
  role: 'user',
  parts: [{ inlineData: { mimeType: 'image/png', data: pngBase64(width, height) } }],
});

describe("media tokens of Gemini and AI SDK messages (Gemini's published rules)", () => {
  it('a Gemini image is 258 tokens up to 384×384, then 258 per 768-px tile, never its base64 text', () => {
    assert.equal(body(inline(384, 384), 'gemini'), 258);
    assert.equal(body(inline(200, 100), 'gemini'), 258);
    assert.equal(body(inline(1000, 500), 'gemini'), 2 * 258);
    assert.equal(body(inline(1536, 1537), 'gemini'), 6 * 258);
    assert.ok(count(pngBase64(1000, 500)) > 10 * 258, 'its text would be priced far higher');
    const unknownSize = { role: 'user', parts: [{ fileData: { mimeType: 'image/jpeg', fileUri: 'files/x' } }] };
    assert.equal(body(unknownSize, 'gemini'), 4 * 258, 'an image of unknown size is priced as 1024²');
  });

  it('Gemini documents, audio and video by their stated estimates; calls by name and JSON; signatures not priced', () => {
    const file = (mimeType: string) => ({ role: 'user', parts: [{ fileData: { mimeType, fileUri: 'files/y' } }] });
    assert.equal(body(file('application/pdf'), 'gemini'), 5 * 258);
    assert.equal(body(file('audio/mp3'), 'gemini'), 32 * 30);
    assert.equal(body(file('video/mp4'), 'gemini'), 263 * 30);
    const call = { functionCall: { name: 'read_file', args: { path: 'a.ts' } } };
    const model = { role: 'model', parts: [call] };
    assert.equal(body(model, 'gemini'), count('read_file') + count('{"path":"a.ts"}'));
    const signed = { role: 'model', parts: [{ ...call, thoughtSignature: 'x'.repeat(4000) }] };
    assert.equal(body(signed, 'gemini'), body(model, 'gemini'));
    const p = priceMessage(model, 'gemini', count);
    assert.deepEqual([p.envelope, p.role], [TOKENS_PER_MESSAGE, count('model')]);
  });

  it('AI SDK images and files by the OpenAI rules, tool results by their output, providerOptions not priced', () => {
    const image = { role: 'user', content: [{ type: 'image', image: 'https://example.com/a.png' }] };
    assert.equal(body(image, 'ai-sdk'), IMAGE_TOKENS);
    const file = { role: 'user', content: [{ type: 'file', data: 'JVBERi0xLjQK', mediaType: 'application/pdf' }] };
    assert.equal(body(file, 'ai-sdk'), FILE_TOKENS);
    const result = {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 't', toolName: 'getOrder', output: { type: 'text', value: 'shipped' } },
      ],
    };
    assert.equal(body(result, 'ai-sdk'), count('getOrder') + count('shipped'));
    const text = { role: 'assistant', content: [{ type: 'text', text: 'hello there' }] };
    const withOptions = {
      ...text,
      providerOptions: { openai: { itemId: 'x'.repeat(500) } },
      content: [{ ...text.content[0], providerOptions: { a: 'y'.repeat(500) } }],
    };
    assert.equal(body(withOptions, 'ai-sdk'), count('hello there'));
    assert.equal(body({ role: 'user', content: 'plain' }, 'ai-sdk'), count('plain'));
  });
});

import { strict as assert } from 'node:assert';
import {
  AUDIO_TOKENS,
  countText,
  FILE_TOKENS,
  imageSizeFromDataUrl,
  imageTokens,
  priceMessage,
} from '../../src/tokens';

const count = (s: string): number => countText(s, 'o200k_base');
const total = (m: unknown, format: 'chat' | 'responses'): number => {
  const p = priceMessage(m, format, count);
  return p.envelope + p.role + p.body;
};

/** A PNG signature and IHDR chunk of the given size, then filler (what a real PNG's first bytes are). */
function pngDataUrl(width: number, height: number, fill = 20_000): string {
  const b = Buffer.alloc(33 + fill);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b.fill(7, 33);
  return `data:image/png;base64,${b.toString('base64')}`;
}

/** SOI, an APP0 segment, then a baseline SOF0 frame header. */
function jpegDataUrl(width: number, height: number): string {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof = [0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 255, width >> 8, width & 255, 3];
  const b = Buffer.from([0xff, 0xd8, ...app0, ...sof, ...Array(9).fill(1)]);
  return `data:image/jpeg;base64,${b.toString('base64')}`;
}

function gifDataUrl(width: number, height: number): string {
  const b = Buffer.alloc(16);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return `data:image/gif;base64,${b.toString('base64')}`;
}

describe('media pricing (wire-constants.ts)', () => {
  it('follows the vision guide: low 85; high = 85 + 170 per 512-px tile after resizing', () => {
    assert.equal(imageTokens('low', { width: 4000, height: 3000 }), 85);
    assert.equal(imageTokens('high', { width: 1024, height: 1024 }), 765, 'guide: 768² → 4 tiles');
    assert.equal(imageTokens('high', { width: 2048, height: 4096 }), 1105, 'guide: 768×1536 → 6 tiles');
    assert.equal(imageTokens('auto', { width: 100, height: 100 }), 255, 'never scaled up: one tile');
    assert.equal(imageTokens(undefined, undefined), 765, 'unknown size: the stated 1024² default');
  });

  it('reads the dimensions from PNG, JPEG and GIF headers of data URLs', () => {
    assert.deepEqual(imageSizeFromDataUrl(pngDataUrl(2048, 4096)), { width: 2048, height: 4096 });
    assert.deepEqual(imageSizeFromDataUrl(jpegDataUrl(640, 480)), { width: 640, height: 480 });
    assert.deepEqual(imageSizeFromDataUrl(gifDataUrl(32, 16)), { width: 32, height: 16 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(1919, 24, 3);
    webp.writeUIntLE(1079, 27, 3);
    const webpUrl = `data:image/webp;base64,${webp.toString('base64')}`;
    assert.deepEqual(imageSizeFromDataUrl(webpUrl), { width: 1920, height: 1080 });
    assert.equal(imageSizeFromDataUrl('https://example.com/cat.png'), undefined);
    assert.equal(imageSizeFromDataUrl('data:image/png;base64,AAAA'), undefined);
  });

  it('prices a chat image part by its detail and header dimensions', () => {
    const part = (url: string, detail?: string) => ({
      role: 'user',
      content: [{ type: 'image_url', image_url: { url, ...(detail ? { detail } : {}) } }],
    });
    const envelope = 3 + count('user');
    assert.equal(total(part(pngDataUrl(2048, 4096), 'low'), 'chat'), envelope + 85);
    assert.equal(total(part(pngDataUrl(2048, 4096), 'high'), 'chat'), envelope + 1105);
    assert.equal(total(part(jpegDataUrl(640, 480)), 'chat'), envelope + 85 + 170 * 2, '640×480 → 2 tiles');
    assert.equal(total(part('https://example.com/cat.png'), 'chat'), envelope + 765);
  });

  it('prices a Responses input_image by its detail', () => {
    const item = {
      role: 'user',
      content: [{ type: 'input_image', image_url: pngDataUrl(512, 512), detail: 'high' }],
    };
    assert.equal(total(item, 'responses'), 3 + count('user') + 85 + 170);
    item.content[0]!.detail = 'low';
    assert.equal(total(item, 'responses'), 3 + count('user') + 85);
  });

  it('prices files and audio by the stated per-file estimate, not their base64 text', () => {
    const pdf = `data:application/pdf;base64,${Buffer.alloc(22_000, 0x25).toString('base64')}`;
    const file = { role: 'user', content: [{ type: 'input_file', filename: 'a.pdf', file_data: pdf }] };
    assert.equal(total(file, 'responses'), 3 + count('user') + FILE_TOKENS);
    const chatFile = { role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: pdf } }] };
    assert.equal(total(chatFile, 'chat'), 3 + count('user') + FILE_TOKENS);
    const audio = {
      role: 'user',
      content: [{ type: 'input_audio', input_audio: { data: Buffer.alloc(50_000).toString('base64'), format: 'wav' } }],
    };
    assert.equal(total(audio, 'chat'), 3 + count('user') + AUDIO_TOKENS);
  });
});

/**
 * Image dimensions from the header of a base64 data URL (PNG, JPEG, GIF, WebP), for the vision pricing rule. Only
 * the first bytes are decoded, so a multi-megabyte image costs nothing to measure.
 */

/** Base64 characters decoded at most: 48 KiB of header, enough for JPEGs with large EXIF blocks before the frame. */
const HEADER_CHARS = 65_536;

/**
 * Reads width and height from a `data:image/...;base64,` URL.
 * @returns the dimensions, or undefined when the URL is not base64 data or the header is not one we read.
 */
export function imageSizeFromDataUrl(url: string): { width: number; height: number } | undefined {
  const match = /^data:[^,]*;base64,/i.exec(url);
  if (!match) return undefined;
  const head = url.slice(match[0].length, match[0].length + HEADER_CHARS);
  const bytes = Buffer.from(head.slice(0, head.length - (head.length % 4)), 'base64');
  const size = png(bytes) ?? gif(bytes) ?? webp(bytes) ?? jpeg(bytes);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

type Size = { width: number; height: number } | undefined;

function png(b: Buffer): Size {
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gif(b: Buffer): Size {
  if (b.length < 10 || b.toString('latin1', 0, 4) !== 'GIF8') return undefined;
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

function webp(b: Buffer): Size {
  if (b.length < 30 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP')
    return undefined;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return undefined;
}

/** Walks the JPEG markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC). */
function jpeg(b: Buffer): Size {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) };
    }
    at += 2 + length;
  }
  return undefined;
}

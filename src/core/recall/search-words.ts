/**
 * The words recall searches by, the same on both sides: a message's text and a query term are both reduced to their
 * letters-and-digits words in lower case, joined by single spaces. So `TCK-4821`, `tck 4821` and `(TCK-4821)` are one
 * identifier, a path `/srv/app/config.yaml` is `srv app config yaml`, and a term matches a message when its words
 * appear there in a row. Pure.
 */

/** A run of letters, digits and combining marks: everything else separates words. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** @returns the words of `text`, lower-cased, joined by single spaces ('' when it has none). */
export function searchWords(text: string): string {
  return (text.toLowerCase().match(WORD) ?? []).join(' ');
}

/** Strings longer than this with no space, only base64 letters, are media or blobs: not words anyone recalls. */
const BLOB_CHARS = 256;
const BLOB = /^[A-Za-z0-9+/=_-]+$/;

/**
 * @returns the searchable words of a stored message in any format: the words of every string value in it (content,
 *   tool arguments and outputs, names), in document order; data URLs and long base64 runs (images, files) are left out.
 */
export function messageWords(message: unknown): string {
  const texts: string[] = [];
  collectStrings(message, texts, 0);
  return searchWords(texts.join('\n'));
}

function collectStrings(value: unknown, out: string[], depth: number): void {
  if (typeof value === 'string') {
    if (value.startsWith('data:') || (value.length > BLOB_CHARS && BLOB.test(value))) return;
    out.push(value);
    return;
  }
  if (typeof value !== 'object' || value === null || depth > 64) return;
  for (const v of Array.isArray(value) ? value : Object.values(value)) collectStrings(v, out, depth + 1);
}

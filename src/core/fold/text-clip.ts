/**
 * Rune-safe clipping of text for rendering and digests. Lengths are in UTF-16 code units (JavaScript string length);
 * a cut never lands inside a surrogate pair, so an emoji or a CJK extension character is never split in half.
 */

/** The mark appended to clipped text. */
export const ELLIPSIS = '…';

/**
 * The longest prefix of `text` of at most `max` code units that does not end in the first half of a surrogate pair.
 *
 * @returns the prefix (the whole text when it fits)
 */
export function safePrefix(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  // A high surrogate at the cut means its low half would be left behind: cut before it.
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/**
 * Trims `text` and clips it to `max` code units, the ellipsis included.
 *
 * @returns the trimmed text, or a rune-safe prefix ending in {@link ELLIPSIS}
 */
export function clip(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  return safePrefix(t, Math.max(0, max - ELLIPSIS.length)).trimEnd() + ELLIPSIS;
}

/**
 * Collapses every run of whitespace (newlines included) to one space, for one-line renderings.
 *
 * @returns the text on one line
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Bounded worst case for BPE counting. Pre-tokenizer pieces are BPE-merged one at a time, and the reference merge is
 * quadratic in the piece length; ordinary text has short pieces, but a run with no split point (one repeated
 * character, an all-lowercase identifier, a line of `=`, a block of spaces) is a single piece as long as the run.
 *
 * The bound: a linear scan proves that no piece can be longer than {@link LONG_PIECE} (the common case: the text goes
 * straight to the library, so ordinary throughput is untouched). Otherwise the text is split with the encoding's own
 * pre-tokenizer regex; runs of ordinary pieces are counted by the library in slices cut at piece boundaries, and each
 * long piece by the O(n log n) heap merge in long-piece.ts. Both halves are exact, so the result equals the reference
 * count (error bound 0, proved in test/tokens/bounded.test.ts) and the cost is O(n log n) in the text length.
 */

/** Pieces at least this long (UTF-16 units) are merged by the heap merger instead of the library. */
export const LONG_PIECE = 256;

// Every pre-token of o200k_base and cl100k_base is one of: letters/marks with ≤ 1 leading char and ≤ 3 contraction
// chars; ≤ 3 digits; optional space + punctuation run + a run of [\r\n/]; or whitespace only. So a piece of length
// m contains a run of one "group" below of length ≥ (m - 1) / 2. Scanning group runs (non-ASCII counts as letter and
// punctuation, which can only over-report) proves every piece is < 2 * MAX_RUN + 2 = LONG_PIECE when no run exceeds
// MAX_RUN.
const MAX_RUN = LONG_PIECE / 2 - 1;
const LETTER = 1;
const PUNCT = 2;
const SPACE = 4;
const NEWLINE_SLASH = 8; // the [\r\n/]* tail of a punctuation piece

const ASCII_GROUPS = (() => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[A-Za-z]/.test(ch)) table[c] = LETTER;
    else if (/[0-9]/.test(ch)) table[c] = 0; // digit pieces are at most 3 long, and no other piece holds digits
    else if (ch === '\r' || ch === '\n') table[c] = SPACE | NEWLINE_SLASH;
    else if (/\s/.test(ch)) table[c] = SPACE;
    else if (ch === '/') table[c] = PUNCT | NEWLINE_SLASH;
    else table[c] = PUNCT;
  }
  return table;
})();

function groupsOf(code: number): number {
  if (code < 128) return ASCII_GROUPS[code]!;
  // The non-ASCII members of JavaScript's \s.
  if (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  ) {
    return SPACE;
  }
  return LETTER | PUNCT;
}

/**
 * Linear scan: false when every pre-token of `text` is provably shorter than {@link LONG_PIECE}.
 * @returns true when some run of one character group exceeds the bound (a long piece may exist).
 */
export function mayHaveLongPiece(text: string): boolean {
  if (text.length < LONG_PIECE) return false;
  let letters = 0;
  let punct = 0;
  let space = 0;
  let tail = 0;
  for (let i = 0; i < text.length; i++) {
    const g = groupsOf(text.charCodeAt(i));
    letters = g & LETTER ? letters + 1 : 0;
    punct = g & PUNCT ? punct + 1 : 0;
    space = g & SPACE ? space + 1 : 0;
    tail = g & NEWLINE_SLASH ? tail + 1 : 0;
    if (letters > MAX_RUN || punct > MAX_RUN || space > MAX_RUN || tail > MAX_RUN) return true;
  }
  return false;
}

/** What {@link countBounded} needs from an encoding. */
export interface PieceCounter {
  /** The library count of ordinary text (special-token strings counted as text). */
  countOrdinary(text: string): number;
  /** The encoding's pre-tokenizer regex (global, unicode). */
  splitRegex: RegExp;
  /** Exact count of one long piece. */
  countLongPiece(piece: string): number;
}

/**
 * Counts `text` exactly, in O(n log n) even when it contains long pre-tokens.
 * @returns the same number as the library's own count of `text`.
 */
export function countBounded(text: string, counter: PieceCounter): number {
  if (!mayHaveLongPiece(text)) return counter.countOrdinary(text);
  let total = 0;
  let spanStart = 0;
  for (const match of text.matchAll(counter.splitRegex)) {
    const piece = match[0];
    if (piece.length < LONG_PIECE) continue;
    const start = match.index;
    // A slice that starts and ends on piece boundaries pre-tokenizes to the same pieces, so its count is exact.
    if (start > spanStart) total += counter.countOrdinary(text.slice(spanStart, start));
    total += counter.countLongPiece(piece);
    spanStart = start + piece.length;
  }
  if (spanStart === 0) return counter.countOrdinary(text); // the scan over-reported: no long piece after all
  if (spanStart < text.length) total += counter.countOrdinary(text.slice(spanStart));
  return total;
}

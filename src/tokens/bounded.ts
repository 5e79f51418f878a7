/**
 * Bounded worst case for BPE counting. Pre-tokenizer pieces are BPE-merged one at a time, and the reference merge is
 * quadratic in the piece length; ordinary text has short pieces, but a run with no split point (one repeated
 * character, an all-lowercase identifier, a line of `=`, a block of spaces) is a single piece as long as the run.
 *
 * The bound: a block scan (linear at worst, a few chars per 64 in ordinary text) proves that no piece can reach
 * {@link LONG_PIECE}; then the text goes straight to the library and ordinary throughput is untouched. Otherwise the
 * text is split with the encoding's own pre-tokenizer regex; runs of ordinary pieces are counted by the library in
 * slices cut at piece boundaries, and each long piece by the O(n log n) merge in long-piece.ts. Both halves are
 * exact, so the result equals the reference count (error bound 0, checked in test/tokens/bounded.test.ts against the
 * library on 20–60 KB inputs) and the cost grows as n log n instead of n².
 */

/** Pieces at least this long (UTF-16 units) go to the long-piece merger instead of the library (~1 µs/char there). */
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
    else if (/[0-9]/.test(ch))
      table[c] = 0; // digit pieces are at most 3 long, and no other piece holds digits
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

// A run longer than MAX_RUN covers at least one whole aligned block of BLOCK chars (2 * BLOCK - 1 <= MAX_RUN + 1),
// so only blocks whose chars all share a group need a closer look. In ordinary text a block stops sharing a group
// within a few chars, so the scan reads a fraction of the text.
const BLOCK = 64;
const ALL_GROUPS = LETTER | PUNCT | SPACE | NEWLINE_SLASH;

/**
 * Sub-linear scan in practice, linear at worst: false when every pre-token of `text` is provably shorter than
 * {@link LONG_PIECE}.
 * @returns true when some run of one character group exceeds the bound (a long piece may exist).
 */
export function mayHaveLongPiece(text: string): boolean {
  const n = text.length;
  if (n < LONG_PIECE) return false;
  for (let start = 0; start + BLOCK <= n; start += BLOCK) {
    let common = ALL_GROUPS;
    for (let i = start; i < start + BLOCK && common !== 0; i++) common &= groupsOf(text.charCodeAt(i));
    if (common !== 0 && longRunAround(text, start, common)) return true;
  }
  return false;
}

/** Measures the full run of each group shared by the block at `start`; true when one exceeds MAX_RUN. */
function longRunAround(text: string, start: number, groups: number): boolean {
  for (const g of [LETTER, PUNCT, SPACE, NEWLINE_SLASH]) {
    if ((groups & g) === 0) continue;
    let lo = start;
    while (lo > 0 && (groupsOf(text.charCodeAt(lo - 1)) & g) !== 0) lo--;
    let hi = start + BLOCK;
    while (hi < text.length && (groupsOf(text.charCodeAt(hi)) & g) !== 0) hi++;
    if (hi - lo > MAX_RUN) return true;
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

/**
 * The pointer form of a ledger entry: what is left of a statement when the fold has no room for it whole. It keeps
 * the statement's binding clauses verbatim — the ones with a value, an identifier or a word of obligation, limit or
 * preference ("never push directly to main", "under $150") — and leaves out the framing ones ("Before you touch
 * anything in the repo", "one thing"); a clause is kept whole or not at all, never cut in the middle. The whole
 * statement is its archived message.
 */
import type { LedgerEntry } from './types';

// Clause boundaries: punctuation that separates clauses (followed by a space: not `s3://`, not `2,300`), sentence ends.
const CLAUSE = /\s*(?:[,;:](?=\s|$)|[()]|\s[—–-]\s|(?<=[.!?])\s)\s*/;
const BINDING =
  /\b(?:never|always|must|do not|don['’]t|does not|cannot|can['’]t|won['’]t|not|no|only|prefer|rather|limit|cap|at most|at least|under|within|deadline|goal|need|needs|should|instead|please)\b/i;
// A value: a digit, an identifier mark, a capitalised word past the first, a quoted span.
const VALUE = /\d|[/@_#$%]|(?<=\S\s)[A-Z][\w-]*|`[^`]+`|["“][^"”]+["”]/;

const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

/**
 * The pointer text of a statement: its binding clauses, verbatim and in order, within about `maxWords` words (the
 * most binding clause is kept whole even when it alone is longer).
 *
 * @param maxWords words kept @default 24
 * @returns the pointer text (the statement itself when it has no clause boundary and fits)
 */
export function pointerText(text: string, maxWords = 24): string {
  const clauses = text
    .replace(/^\s*→\s*/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .split(CLAUSE)
    .map((c) => c.trim().replace(/[.!?]+$/, ''))
    .filter((c) => /[A-Za-z0-9]/.test(c));
  if (clauses.length === 0) return text.trim();
  const score = (c: string): number => (VALUE.test(c) ? 2 : 0) + (BINDING.test(c) ? 2 : 0) + (words(c) >= 3 ? 1 : 0);
  const ranked = clauses.map((c, i) => ({ c, i, s: score(c) })).sort((a, b) => b.s - a.s || a.i - b.i);
  const keep = new Set<number>([ranked[0]!.i]);
  let used = words(ranked[0]!.c);
  for (const r of ranked.slice(1)) {
    if (r.s < 2) break;
    const w = words(r.c);
    if (used + w > maxWords) continue;
    keep.add(r.i);
    used += w;
  }
  const kept = clauses.filter((_, i) => keep.has(i)).join('; ');
  // An identifier of a clause left out (a ticket, a path, a hash, a version) is kept after it: it is what a pointer
  // cannot be searched back by otherwise, and what the statement was most likely kept for.
  const ids = clauses
    .filter((_, i) => !keep.has(i))
    .flatMap((c) => c.split(/\s+/))
    .map((w) => w.replace(/^[^\w#@$/.~-]+|[^\w%/]+$/g, ''))
    .filter((w) => w.length >= 3 && /\d/.test(w) && /[A-Za-z/@_#.:-]/.test(w) && !kept.includes(w));
  return [kept, ...[...new Set(ids)].slice(0, MAX_IDS)].join('; ');
}

/** Identifiers of left-out clauses a pointer keeps, at most. */
const MAX_IDS = 2;

/**
 * The entry as a pointer (an entry already a pointer is shortened further when `maxWords` is smaller).
 *
 * @returns the pointer entry (kind, seq, status kept; `was` dropped)
 */
export function asPointer(e: LedgerEntry, maxWords = 24): LedgerEntry {
  const { was: _was, ...rest } = e;
  return { ...rest, text: pointerText(e.text, maxWords), pointer: true };
}

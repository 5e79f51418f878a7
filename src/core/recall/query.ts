/**
 * A recall query as the agent (or a person) writes it: archive numbers and ranges (`#12`, `#12-#40`, `#12–#40`, `→ #12`
 * as a summary prints it) and words or identifiers (`TCK-4821`, `"exact phrase"`, `/srv/app/config.yaml`). Numbers
 * and ranges name messages directly; terms search the whole archive: a message matches when it holds every term (each
 * term's words in a row, see `search-words.ts`). A query with both returns both (the numbered messages first), so a
 * pointer is answered whatever words the agent writes around it. Pure.
 */
import { searchWords } from './search-words';

/** Longest query accepted, in characters (a tool call's argument, not a document). */
export const MAX_QUERY_CHARS = 1000;
/** Most terms and most ranges in one query. */
export const MAX_QUERY_TERMS = 16;
export const MAX_QUERY_RANGES = 16;

/** An inclusive range of archive sequence numbers. */
export interface SeqRange {
  first: number;
  last: number;
}

/** A parsed recall query. */
export interface RecallQuery {
  /** Messages asked for by number, in the order written. */
  ranges: SeqRange[];
  /** Normalised terms (see `searchWords`), all of which a match holds; empty = no search. */
  terms: string[];
}

/** A query that cannot be run; the message says what is wrong with it. */
export class RecallQueryError extends Error {
  override readonly name = 'RecallQueryError';
}

/** `#12`, `#12-#40`, `#12–#40`, `#12-40`, `#12..#40`. */
const RANGE = /#(\d+)(?:\s*(?:-|–|—|\.\.)\s*#?(\d+))?/g;
const PHRASE = /"([^"]*)"/g;

/**
 * @returns the query's ranges and terms.
 * @throws RecallQueryError when it is not a string, is longer than {@link MAX_QUERY_CHARS}, names nothing to look for,
 *   has a range that ends before it starts or a number past `Number.MAX_SAFE_INTEGER`, or has more than
 *   {@link MAX_QUERY_TERMS} terms or {@link MAX_QUERY_RANGES} ranges.
 */
export function parseRecallQuery(query: unknown): RecallQuery {
  if (typeof query !== 'string') throw new RecallQueryError(`the recall query must be a string, got ${typeof query}`);
  if (query.length > MAX_QUERY_CHARS)
    throw new RecallQueryError(`the recall query is ${query.length} characters, over the ${MAX_QUERY_CHARS} limit`);
  // Quoted phrases first: a `#` inside one is text (`"issue #12"`), not an archive number.
  const terms: string[] = [];
  const unquoted = query.replace(PHRASE, (_all, phrase: string) => {
    terms.push(searchWords(phrase));
    return ' ';
  });
  const ranges: SeqRange[] = [];
  const rest = unquoted.replace(RANGE, (_all, a: string, b: string | undefined) => {
    const first = seqNumber(a);
    const last = b === undefined ? first : seqNumber(b);
    if (last < first) throw new RecallQueryError(`the range #${first}-#${last} ends before it starts`);
    ranges.push({ first, last });
    return ' ';
  });
  // Each whitespace-separated token is one term; an arrow or bracket a summary printed is no term.
  for (const token of rest.split(/\s+/)) terms.push(searchWords(token));
  const unique = [...new Set(terms.filter((t) => t !== ''))];
  if (unique.length === 0 && ranges.length === 0)
    throw new RecallQueryError(
      'the recall query names nothing to look for: give an identifier, words, or archive numbers such as #12 or #12-#40'
    );
  if (unique.length > MAX_QUERY_TERMS)
    throw new RecallQueryError(`the recall query has ${unique.length} terms, more than ${MAX_QUERY_TERMS}`);
  if (ranges.length > MAX_QUERY_RANGES)
    throw new RecallQueryError(`the recall query has ${ranges.length} archive ranges, more than ${MAX_QUERY_RANGES}`);
  return { ranges, terms: unique };
}

function seqNumber(digits: string): number {
  const n = Number(digits);
  if (!Number.isSafeInteger(n)) throw new RecallQueryError(`archive number #${digits} is too large`);
  return n;
}

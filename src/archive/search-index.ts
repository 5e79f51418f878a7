/**
 * The driver-independent part of the recall search index: the rows a message is indexed as, the check of a search
 * request, and the text both drivers match with. A message's searchable words (`messageWords`) are stored in parts of
 * at most {@link SEARCH_PART_CHARS} characters that overlap by {@link SEARCH_PART_OVERLAP}, so one PostgreSQL tsvector
 * stays far below its 1 MB limit and a term (at most `MAX_QUERY_CHARS`) never falls between two parts unseen.
 */
import { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from '../core/recall/query';
import { messageWords, searchWords } from '../core/recall/search-words';
import { ArchiveInputError, type SearchRequest } from './archive';
import type { ArchiveCipher } from './cipher';
import { checkNumber, MAX_ENTRIES_PER_CALL, parseBody, type PreparedEntry } from './entries';

/** Characters of words in one index row. */
export const SEARCH_PART_CHARS = 100_000;
/** Characters each part repeats from the end of the one before it. */
export const SEARCH_PART_OVERLAP = MAX_QUERY_CHARS;

/** One row of `archive_search`. */
export interface SearchRow {
  seq: number;
  part: number;
  hash: string;
  words: string;
  /** The key whose tokens `words` holds (a blind index); `null` for plain words. */
  keyId: string | null;
}

/**
 * @returns the index rows of stored messages (at least one per message, with `''` words for one without text); with a
 *   `cipher`, each part's words replaced by their tokens (parts are cut on the plain words, so the overlap still
 *   covers any term).
 */
export function searchRows(
  entries: readonly Pick<PreparedEntry, 'seq' | 'hash' | 'body'>[],
  sealing?: { cipher: ArchiveCipher; key: string }
): SearchRow[] {
  const keyId = sealing?.cipher.keyId ?? null;
  return entries.flatMap((e) =>
    splitWords(messageWords(parseBody(e.body))).map((words, part) => ({
      seq: e.seq,
      part,
      hash: e.hash,
      words: sealing ? sealing.cipher.blind(sealing.key, words) : words,
      keyId,
    }))
  );
}

/** One form of a search's terms: as rows sealed with `keyId` hold them (`null`: plain rows). */
export interface SearchVariant {
  keyId: string | null;
  terms: string[];
}

/**
 * @returns the forms `terms` must be searched in: as they are in plain rows (written before encryption was on), and
 *   as each configured key's tokens in that key's rows.
 */
export function searchVariants(
  key: string,
  terms: readonly string[],
  cipher: ArchiveCipher | undefined
): SearchVariant[] {
  const plain = { keyId: null, terms: [...terms] };
  return [
    plain,
    ...(cipher?.keyIds() ?? []).map((keyId) => ({ keyId, terms: terms.map((t) => cipher!.blind(key, t, keyId)) })),
  ];
}

/** @returns the lowest `limit` numbers of the variants' matches together, ascending, each once. */
export function mergeMatches(matches: readonly number[][], limit: number): number[] {
  return [...new Set(matches.flat())].sort((a, b) => a - b).slice(0, limit);
}

/** @returns `words` in overlapping parts, each cut at a space. */
export function splitWords(words: string): string[] {
  if (words.length <= SEARCH_PART_CHARS) return [words];
  const parts: string[] = [];
  let start = 0;
  while (start < words.length) {
    let end = Math.min(words.length, start + SEARCH_PART_CHARS);
    if (end < words.length) {
      const space = words.lastIndexOf(' ', end);
      if (space > start + SEARCH_PART_OVERLAP) end = space;
    }
    parts.push(words.slice(start, end));
    if (end >= words.length) break;
    // The next part starts at a word boundary SEARCH_PART_OVERLAP characters back (or where this one ended).
    const back = words.indexOf(' ', end - SEARCH_PART_OVERLAP);
    start = back > start && back < end ? back + 1 : words[end] === ' ' ? end + 1 : end;
  }
  return parts;
}

/**
 * @returns the request, checked: 1 to `MAX_QUERY_TERMS` terms, each non-empty, already in `searchWords` form and at
 *   most `MAX_QUERY_CHARS` long; sequence bounds ≥ 0; a limit from 1 to `MAX_ENTRIES_PER_CALL`.
 * @throws ArchiveInputError naming the field that is wrong.
 */
export function checkSearch(request: SearchRequest): SearchRequest {
  const terms: unknown = request?.terms;
  if (!Array.isArray(terms) || terms.length === 0 || terms.length > MAX_QUERY_TERMS)
    throw new ArchiveInputError(`search terms must be an array of 1 to ${MAX_QUERY_TERMS} strings`);
  terms.forEach((t: unknown, i) => {
    if (typeof t !== 'string' || t === '' || t.length > MAX_QUERY_CHARS || searchWords(t) !== t)
      throw new ArchiveInputError(
        `search terms[${i}] must be non-empty words in searchWords form (lower case, single spaces), at most ${MAX_QUERY_CHARS} characters`
      );
  });
  const firstSeq = checkNumber(request.firstSeq, 'firstSeq');
  const lastSeq = checkNumber(request.lastSeq, 'lastSeq');
  const limit = checkNumber(request.limit, 'limit', 1);
  if (limit > MAX_ENTRIES_PER_CALL) throw new ArchiveInputError(`limit must be at most ${MAX_ENTRIES_PER_CALL}`);
  return { terms: terms as string[], firstSeq, lastSeq, limit };
}

/** @returns a term as both drivers look for it in a row's words: between spaces (the row's words padded likewise). */
export function paddedTerm(term: string): string {
  return ` ${term} `;
}

/** @returns the FTS5 query for `terms`: every term as a phrase. Terms hold only letters, digits and spaces. */
export function ftsQuery(terms: readonly string[]): string {
  return terms.map((t) => `"${t}"`).join(' AND ');
}

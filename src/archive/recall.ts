/**
 * Answering a recall query from the archive: the messages it names by number and the messages holding every term,
 * originals with their archive numbers, bounded in count and bytes. Read-only; the client and the CLI call it.
 */
import { parseRecallQuery, RecallQueryError, type SeqRange } from '../core/recall/query';
import type { ConversationArchive } from './archive';

/** What recall needs of the archive. */
export type RecallArchive = Pick<ConversationArchive, 'search' | 'read' | 'readRange'>;

/** Limits of one recall. */
export interface RecallOptions {
  /** Most messages returned (1–1000). @default 20 */
  maxMatches?: number;
  /**
   * Most bytes of JSON of the matches together (1 KiB–16 MiB); a match that does not fit is listed in `omitted`.
   * @default 65536 (about 16 000 tokens)
   */
  maxBytes?: number;
}

export const RECALL_DEFAULTS = { maxMatches: 20, maxBytes: 65_536 } as const;
const MAX_MATCHES = 1000;
const BYTES = { min: 1024, max: 16 * 1024 * 1024 };

/** One recalled message: its archive number and the original as it was appended. */
export interface RecallMatch {
  seq: number;
  message: unknown;
}

/** What a recall found. */
export interface RecallResult {
  /** The matches, numbered messages first (in the order asked), then search matches by number. */
  matches: RecallMatch[];
  /** Numbers of matches left out because they did not fit in `maxBytes` (ask for one alone with a larger cap). */
  omitted: number[];
  /** True when more messages matched than `maxMatches`, or some were omitted: narrow the query to see the rest. */
  truncated: boolean;
}

/**
 * @returns the messages of conversation `key` that `query` names or matches, within `options`' caps.
 * @throws RecallQueryError for a query or option that cannot be run (the message says why); ArchiveError when the
 *   archive cannot be read.
 */
export async function recallFromArchive(
  archive: RecallArchive,
  key: string,
  query: string,
  options: RecallOptions = {}
): Promise<RecallResult> {
  const parsed = parseRecallQuery(query);
  const maxMatches = bounded(options.maxMatches, RECALL_DEFAULTS.maxMatches, 1, MAX_MATCHES, 'maxMatches');
  const maxBytes = bounded(options.maxBytes, RECALL_DEFAULTS.maxBytes, BYTES.min, BYTES.max, 'maxBytes');
  const found = new Map<number, unknown>();
  let more = false;
  // One past the cap is read, so "more matched" is known without counting every match.
  for (const range of parsed.ranges) {
    const room = maxMatches + 1 - found.size;
    if (room <= 0) break;
    for (const m of await archive.readRange(key, range.first, lastOf(range, room))) found.set(m.seq, m.message);
  }
  if (parsed.terms.length > 0 && found.size <= maxMatches) {
    const seqs = await archive.search(key, {
      terms: parsed.terms,
      firstSeq: 0,
      lastSeq: Number.MAX_SAFE_INTEGER,
      limit: maxMatches + 1 + found.size,
    });
    const fresh = seqs.filter((s) => !found.has(s)).slice(0, maxMatches + 1 - found.size);
    for (const m of await archive.read(key, fresh)) found.set(m.seq, m.message);
  }
  if (found.size > maxMatches) more = true;
  const matches: RecallMatch[] = [];
  const omitted: number[] = [];
  let bytes = 2; // the brackets of the array
  for (const [seq, message] of [...found].slice(0, maxMatches)) {
    const size = Buffer.byteLength(JSON.stringify({ seq, message }), 'utf8') + 1;
    if (bytes + size > maxBytes) omitted.push(seq);
    else {
      matches.push({ seq, message });
      bytes += size;
    }
  }
  return { matches, omitted, truncated: more || omitted.length > 0 };
}

/** The last number to read of `range` when `room` more messages are wanted. */
function lastOf(range: SeqRange, room: number): number {
  return Math.min(range.last, range.first + room - 1);
}

function bounded(value: unknown, fallback: number, min: number, max: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
    throw new RecallQueryError(
      `recall option ${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value) ?? typeof value}`
    );
  return value;
}

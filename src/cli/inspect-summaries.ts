/**
 * `durable-compaction inspect --summaries`: every applied fold's summary as the archive keeps it (by the request
 * digest its fold record carries), with a line diff against the previous summary.
 */
import type { ConversationArchive } from '../archive/archive';
import type { FoldRecord } from '../core/fold/fold-record';
import { diffLines, lineDiff } from '../core/line-diff';

/** One fold's summary as `inspect --summaries` prints it. */
export interface InspectedSummary {
  number: number;
  /** The archive range the summary replaced. */
  replaced: FoldRecord['archiveRange'];
  /** True for the offline fallback's summary at the hard limit. */
  fallback: boolean;
  /** The fallback fold whose summary this one replaced; `null` when none. */
  replaces: number | null;
  requestDigest: string | null;
  /** `text`, or `items` (a compaction endpoint's output, as JSON); `null` when the archive holds no summary for it. */
  kind: 'text' | 'items' | null;
  summary: string | null;
  /** Lines changed since the previous summary shown (`null` for the first, or without text on either side). */
  diff: { added: number; removed: number; lines: string[] } | null;
}

/**
 * Reads the folds that put a summary in the context and their summaries.
 * @returns one entry per applied fold with a summary (truncations have none), in fold order.
 */
export async function inspectSummaries(archive: ConversationArchive, key: string): Promise<InspectedSummary[]> {
  const [folds, stored] = await Promise.all([archive.folds(key), archive.summaries(key)]);
  const byDigest = new Map(stored.map((s) => [s.digest, s]));
  let previous: string | null = null;
  return folds
    .filter((f) => f.ok && f.output !== null)
    .map((f) => {
      const s = f.requestDigest ? byDigest.get(f.requestDigest) : undefined;
      const text = s?.text ?? null;
      const diff = previous !== null && text !== null ? lineDiff(previous, text) : null;
      if (text !== null) previous = text;
      return {
        number: f.number,
        replaced: f.archiveRange,
        fallback: f.fallback === true,
        replaces: f.replaces ?? null,
        requestDigest: f.requestDigest ?? null,
        kind: s?.kind ?? null,
        summary: text,
        diff: diff && { added: diff.added, removed: diff.removed, lines: diffLines(diff) },
      };
    });
}

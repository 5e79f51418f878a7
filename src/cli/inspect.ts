import { openArchiveFor, archiveFlags } from './archive-args';
import { inspectSummaries } from './inspect-summaries';
import { CliUsageError, parseFlags, type CliIO } from './io';

/**
 * `durable-compaction inspect --conversation ID [--workflow-id ID] [--data DIR] [--summaries]`: reads the configured
 * archive (SQLite or PostgreSQL) and prints one JSON object: how many messages are archived, for every fold which
 * archive range its summary replaced, and every superseded revision (a number stored again with different content);
 * with `--summaries`, each fold's summary and a line diff against the previous one instead.
 * @returns 0, or 2 on bad input (no such conversation in the archive).
 */
export async function runInspect(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, archiveFlags, ['summaries']);
  const { archive, key, conversationId } = await openArchiveFor(flags, positional);
  try {
    const summary = await archive.summary(key);
    if (summary.messages === 0)
      throw new CliUsageError(`no archived messages for workflow '${key}' in the ${archive.driver} archive`);
    const base = { conversation: conversationId, workflowId: key, driver: archive.driver };
    if (flags.has('summaries')) {
      io.stdout(JSON.stringify({ ...base, summaries: await inspectSummaries(archive, key) }));
      return 0;
    }
    const folds = await archive.folds(key);
    const superseded = await archive.superseded(key);
    io.stdout(
      JSON.stringify({
        ...base,
        archived: summary.messages,
        lastSeq: summary.lastSeq,
        folds: folds.map((f) => ({
          number: f.number,
          ok: f.ok,
          replaced: f.archiveRange,
          droppedCount: f.droppedCount,
          tokensBefore: f.tokensBefore,
          tokensAfter: f.tokensAfter,
          identifiers: f.identifiers,
          error: f.error,
        })),
        superseded: superseded.map(({ value: _value, ...revision }) => revision),
      })
    );
    return 0;
  } finally {
    await archive.close();
  }
}

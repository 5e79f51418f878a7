/**
 * `durable-compaction recall --conversation ID QUERY`: the conversation's archived messages a query names by number or
 * matches by identifier or words, read from the configured archive (as `ConversationClient.recall` reads them).
 */
import { recallFromArchive } from '../archive/recall';
import { RecallQueryError } from '../core/recall/query';
import { archiveFlags, openArchiveFor } from './archive-args';
import { CliUsageError, parseFlags, type CliIO } from './io';

export const recallHelp = `usage: durable-compaction recall --conversation ID [--workflow-id ID] [--data DIR] [--max-matches N] [--max-bytes N] QUERY
Prints {"matches": [{"seq", "message"}], "omitted": [seq, …], "truncated"}: the archived originals QUERY names by
number (#12, #12-#40, a summary's (→ #12)) and those holding every identifier or word of it (TCK-4821, "a phrase",
a path), from the configured archive (SQLite or PostgreSQL; --data overrides devServer.dataDir). At most
--max-matches messages (default 20) and --max-bytes bytes of JSON (default 65536); "omitted" lists matches too large
for the rest. Exit 2 on a query that names nothing or a bad flag.`;

/**
 * Runs `recall`.
 * @returns 0 after printing; rejects with CliUsageError (exit 2) for a missing conversation or query, a bad limit or
 *   a query that cannot be run.
 */
export async function runRecall(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, [...archiveFlags, 'max-matches', 'max-bytes']);
  if (!flags.has('conversation') && !flags.has('workflow-id'))
    throw new CliUsageError('missing --conversation ID (or --workflow-id ID)');
  const query = positional.join(' ');
  if (query.trim() === '')
    throw new CliUsageError('missing QUERY (archive numbers such as #12, an identifier or words)');
  const limits = { maxMatches: intFlag(flags, 'max-matches'), maxBytes: intFlag(flags, 'max-bytes') };
  const { archive, key } = await openArchiveFor(flags, []);
  try {
    const result = await recallFromArchive(archive, key, query, limits);
    io.stdout(JSON.stringify(result));
    return 0;
  } catch (err) {
    if (err instanceof RecallQueryError) throw new CliUsageError(err.message);
    throw err;
  } finally {
    await archive.close();
  }
}

function intFlag(flags: Map<string, string>, name: string): number | undefined {
  const value = flags.get(name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliUsageError(`--${name} must be a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

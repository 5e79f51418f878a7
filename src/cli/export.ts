import { openArchiveFor, archiveFlags } from './archive-args';
import { CliUsageError, parseFlags, type CliIO } from './io';

/** Messages read per query while exporting, so a large conversation never sits in memory whole. */
const PAGE = 1000;

/**
 * `durable-compaction export --conversation ID [--workflow-id ID] [--data DIR]`: prints the conversation's archive as
 * JSON lines: `{"kind":"message","seq","revision","hash","message"}` per message in order, then
 * `{"kind":"fold","number","record"}` per fold record, then `{"kind":"superseded",…,"value"}` per older revision.
 * @returns 0, or 2 on bad input (no such conversation in the archive).
 */
export async function runExport(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, archiveFlags);
  const { archive, key } = await openArchiveFor(flags, positional);
  try {
    const { messages, lastSeq } = await archive.summary(key);
    if (messages === 0 || lastSeq === null)
      throw new CliUsageError(`no archived messages for workflow '${key}' in the ${archive.driver} archive`);
    for (let first = 0; first <= lastSeq; first += PAGE) {
      for (const m of await archive.readRange(key, first, Math.min(first + PAGE - 1, lastSeq)))
        io.stdout(JSON.stringify({ kind: 'message', ...m }));
    }
    for (const record of await archive.folds(key))
      io.stdout(JSON.stringify({ kind: 'fold', number: record.number, record }));
    for (const revision of await archive.superseded(key))
      io.stdout(JSON.stringify({ ...revision, kind: 'superseded', of: revision.kind }));
    return 0;
  } finally {
    await archive.close();
  }
}

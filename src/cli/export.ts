/**
 * `durable-compaction export --conversation ID`: the conversation's live context (as the workflow holds it, read by
 * query: no history event) and its archive (every original message, every fold record, every superseded revision),
 * as one JSON object or, with `--lines`, as JSON lines read page by page so a large conversation never sits in memory.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { ConversationArchive } from '../archive/archive';
import type { Config } from '../config/schema';
import { contextQuery, stateQuery } from '../contract/definitions';
import { archiveFlags, openArchiveFor } from './archive-args';
import { connectTemporal } from './connect';
import { CliUsageError, parseFlags, type CliIO } from './io';

export const exportHelp = `usage: durable-compaction export --conversation ID [--workflow-id ID] [--data DIR] [--archive-only] [--lines]
Prints one JSON object: {"conversation", "workflowId", "driver", "live": {"version", "format", "tokens", "budget",
"folds", "closed", "messages"} | null, "archive": {"messages": [{"seq", "revision", "hash", "message"}], "folds":
[...fold records], "superseded": [{"kind", "seq", "revision", "hash", "storedAt", "supersededAt", "value"}]}}.
The live context is read from the workflow on Temporal (temporal.yaml; null when the workflow is gone); the archive
from the configured archive (SQLite or PostgreSQL; --data overrides devServer.dataDir). --archive-only skips
Temporal. --lines prints JSON lines instead, page by page: {"kind":"live",…} (unless --archive-only), then
{"kind":"message",…} per message in order, {"kind":"fold","number","record"} per fold record and
{"kind":"superseded","of",…} per older revision. Exit 2 when the conversation is known to neither.`;

/** Messages read per query, so a large conversation never sits in memory whole. */
const PAGE = 1000;

/** The live context of workflow `workflowId`, by query; `null` when Temporal knows no such workflow. */
async function readLive(config: Config, workflowId: string): Promise<Record<string, unknown> | null> {
  const temporal = await connectTemporal(config).catch((err: unknown) => {
    throw new Error(`${(err as Error).message} (--archive-only reads the archive alone)`);
  });
  try {
    const handle = temporal.client.workflow.getHandle(workflowId);
    const [context, state] = await Promise.all([handle.query(contextQuery), handle.query(stateQuery)]);
    return {
      version: context.version,
      format: context.format,
      tokens: context.tokens,
      budget: state.budget,
      folds: state.folds,
      closed: state.closed,
      messages: context.messages,
    };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  } finally {
    await temporal.close();
  }
}

/** Prints the archive of `key` as JSON lines, `PAGE` messages per query. */
async function printArchiveLines(archive: ConversationArchive, key: string, lastSeq: number, io: CliIO): Promise<void> {
  for (let first = 0; first <= lastSeq; first += PAGE) {
    for (const m of await archive.readRange(key, first, Math.min(first + PAGE - 1, lastSeq)))
      io.stdout(JSON.stringify({ kind: 'message', ...m }));
  }
  for (const record of await archive.folds(key))
    io.stdout(JSON.stringify({ kind: 'fold', number: record.number, record }));
  for (const revision of await archive.superseded(key))
    io.stdout(JSON.stringify({ ...revision, kind: 'superseded', of: revision.kind }));
}

/**
 * Runs `export`.
 * @returns 0 after printing; rejects with CliUsageError (exit 2) on bad flags or a conversation known to neither
 * Temporal nor the archive, with Error (exit 1) when Temporal cannot be reached (use `--archive-only`).
 */
export async function runExport(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, archiveFlags, ['archive-only', 'lines']);
  const archiveOnly = flags.has('archive-only');
  const lines = flags.has('lines');
  const { archive, key, conversationId, config } = await openArchiveFor(flags, positional);
  try {
    const { messages, lastSeq } = await archive.summary(key);
    const live = archiveOnly ? null : await readLive(config, key);
    if (live === null && (messages === 0 || lastSeq === null))
      throw new CliUsageError(
        `no conversation '${conversationId ?? key}': ${archiveOnly ? '' : `no workflow ${key} and `}no archived messages for workflow '${key}' in the ${archive.driver} archive`
      );
    const head = { conversation: conversationId, workflowId: key, driver: archive.driver };
    if (lines) {
      if (!archiveOnly) io.stdout(JSON.stringify({ kind: 'live', ...head, live }));
      if (lastSeq !== null) await printArchiveLines(archive, key, lastSeq, io);
      return 0;
    }
    const [all, folds, superseded] = await Promise.all([
      archive.readAll(key),
      archive.folds(key),
      archive.superseded(key),
    ]);
    io.stdout(JSON.stringify({ ...head, live, archive: { messages: all, folds, superseded } }));
    return 0;
  } finally {
    await archive.close();
  }
}

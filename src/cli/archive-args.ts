import { existsSync } from 'node:fs';
import type { ConversationArchive } from '../archive/archive';
import { openArchive, sqliteArchivePath } from '../archive/open-archive';
import { loadConfig } from '../config/load-config';
import type { Config } from '../config/schema';
import { conversationWorkflowId } from '../contract/definitions';
import { conversationIdProblem } from '../contract/conversation-id';
import { CliUsageError } from './io';

/** The flags `inspect` and `export` share. */
export const archiveFlags = ['conversation', 'workflow-id', 'data'] as const;

/**
 * Opens the archive the configuration names (`temporal.yaml` / `$DC_CONFIG` and the environment; `--data DIR`
 * overrides `devServer.dataDir`) and resolves the conversation's archive key: its workflow id.
 * @throws CliUsageError without a conversation, or when the configured SQLite file does not exist.
 */
export async function openArchiveFor(
  flags: Map<string, string>,
  positional: string[]
): Promise<{ archive: ConversationArchive; key: string; conversationId: string | null; config: Config }> {
  const conversationId = flags.get('conversation') ?? positional[0] ?? null;
  const workflowId = flags.get('workflow-id');
  if (conversationId === null && workflowId === undefined)
    throw new CliUsageError('missing --conversation ID (or --workflow-id ID)');
  // Checked before anything is opened: the id names a key (and, for files, a path).
  const idProblem = conversationId === null ? undefined : conversationIdProblem(conversationId);
  if (idProblem) throw new CliUsageError(idProblem);
  const loaded = loadConfig();
  const dataDir = flags.get('data');
  const config = dataDir === undefined ? loaded : { ...loaded, devServer: { ...loaded.devServer, dataDir } };
  if (config.archive.driver === 'sqlite' && !existsSync(sqliteArchivePath(config)))
    throw new CliUsageError(`no archive database at ${sqliteArchivePath(config)} (archive.driver sqlite)`);
  const archive = await openArchive(config);
  return { archive, key: workflowId ?? conversationWorkflowId(conversationId!), conversationId, config };
}

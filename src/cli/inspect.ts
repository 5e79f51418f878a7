import { join, resolve } from 'node:path';
import { FileArchive } from '../archive/file-archive';
import { CliUsageError, parseFlags, type CliIO } from './io';

/**
 * `durable-compaction inspect --conversation ID [--data DIR]`: reads the conversation archive and prints one JSON
 * object: how many messages are archived and, for every fold, which archive range its summary replaced.
 * @returns 0, or 2 on bad input (no such conversation in the archive).
 */
export async function runInspect(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, ['conversation', 'data']);
  const conversationId = flags.get('conversation') ?? positional[0];
  if (conversationId === undefined) throw new CliUsageError('missing --conversation ID');
  const dataDir = flags.get('data') ?? process.env.DATA_DIR ?? '.data';
  const archive = new FileArchive(resolve(join(dataDir, 'archive')));
  const messages = await archive.readAll(conversationId);
  if (messages.length === 0)
    throw new CliUsageError(`no archived messages for conversation '${conversationId}' in ${dataDir}/archive`);
  const folds = await archive.folds(conversationId);
  io.stdout(
    JSON.stringify({
      conversation: conversationId,
      archived: messages.length,
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
    })
  );
  return 0;
}

/**
 * `durable-compaction delete --conversation ID`: deletes a conversation for good (a deletion request): its archive is
 * erased, its workflow closes and every Temporal execution of it is deleted, through `ConversationClient.delete`.
 */
import { ConversationClient } from '../client/conversation-client';
import { conversationIdProblem } from '../contract/conversation-id';
import { loadConfig } from '../config/load-config';
import { connectTemporal } from './connect';
import { CliUsageError, parseFlags, type CliIO } from './io';

export const deleteHelp = `usage: durable-compaction delete --conversation ID
Deletes the conversation for good: a worker on temporal.yaml's task queue erases its archive (messages, fold records,
superseded revisions) and closes it, then every Temporal execution of its workflow (history, visibility) is deleted.
Works on a running, closed or already deleted conversation (then it erases nothing). Prints {"conversation",
"workflowId", "erased": {"messages", "folds", "superseded"}, "runs"}. Exit 2 on a bad id, 1 when Temporal or a worker
did not answer in time (run it again: nothing is done twice).`;

/**
 * Runs `delete`.
 * @returns 0 once the conversation is gone; rejects with CliUsageError (exit 2) on bad flags or id, with Error (exit
 *   1) when Temporal cannot be reached or the deletion did not finish in time.
 */
export async function runDelete(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, ['conversation']);
  const conversationId = flags.get('conversation') ?? positional[0];
  if (conversationId === undefined) throw new CliUsageError('missing --conversation ID');
  if (positional.length > (flags.has('conversation') ? 0 : 1))
    throw new CliUsageError(`unexpected arguments: ${positional.join(' ')}`);
  const problem = conversationIdProblem(conversationId);
  if (problem) throw new CliUsageError(problem);
  const config = loadConfig();
  const temporal = await connectTemporal(config);
  try {
    const conv = new ConversationClient({
      client: temporal.client,
      conversationId,
      taskQueue: config.temporal.taskQueue,
    });
    const { runs, ...erased } = await conv.delete();
    io.stdout(JSON.stringify({ conversation: conversationId, workflowId: conv.workflowId, erased, runs }));
    return 0;
  } finally {
    await temporal.close();
  }
}

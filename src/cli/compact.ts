/**
 * `durable-compaction compact --conversation ID [--focus TEXT]`: folds a running conversation now (`compactNow`) and
 * prints the outcome, like `/compact [focus]` in coding agents.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { ConversationClient } from '../client/conversation-client';
import { ConversationUpdateError } from '../client/errors';
import { compactNowInputProblem } from '../contract/compact-now';
import { conversationIdProblem } from '../contract/conversation-id';
import { loadConfig } from '../config/load-config';
import { connectTemporal } from './connect';
import { CliUsageError, parseFlags, type CliIO } from './io';

export const compactHelp = `usage: durable-compaction compact --conversation ID [--focus TEXT]
Folds the running conversation now, as its policy would at the trigger (a fold in flight is finished first), with
TEXT (at most 2 000 characters) in the summary request, and prints {"conversation", "folded", "decision", "fold":
{"ok", "number", "reason", "tokensBefore", "tokensAfter"} | null, "version"}. Reaches Temporal as temporal.yaml says
(the worker must be running). Exit 2 for bad input, an unknown or closed conversation.`;

/**
 * Runs `compact`.
 * @returns 0 after printing the outcome (whether it folded or had nothing to fold).
 * @throws CliUsageError (exit 2) for bad flags or focus, an unknown or closed conversation; Error (exit 1) when
 *   Temporal cannot be reached.
 */
export async function runCompact(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, ['conversation', 'focus']);
  if (positional.length > 0) throw new CliUsageError(`unexpected argument '${positional[0]!.slice(0, 40)}'`);
  const conversationId = flags.get('conversation');
  if (conversationId === undefined) throw new CliUsageError('missing --conversation ID');
  const idProblem = conversationIdProblem(conversationId);
  if (idProblem) throw new CliUsageError(idProblem);
  const focus = flags.get('focus');
  const input = focus === undefined ? {} : { focus };
  const problem = compactNowInputProblem(input);
  if (problem) throw new CliUsageError(problem);
  const temporal = await connectTemporal(loadConfig());
  try {
    const conv = new ConversationClient({
      client: temporal.client,
      conversationId,
      taskQueue: temporal.config.temporal.taskQueue,
      retryDeadlineMs: 30_000,
    });
    const result = await conv.compactNow(input);
    io.stdout(JSON.stringify({ conversation: conversationId, ...result }));
    return 0;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new CliUsageError(`no running conversation '${conversationId}'`);
    if (err instanceof ConversationUpdateError && (err.type === 'ConversationClosed' || err.type === 'InvalidAppend'))
      throw new CliUsageError(err.message);
    throw err;
  } finally {
    await temporal.close();
  }
}

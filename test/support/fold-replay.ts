// Drives a corpus session that folds on a worker with the given activities, then replays it on a fresh worker: for
// tests of what a replay computes again (times, decisions) against what the run held.
import { conversationWorkflowId, foldsQuery } from '../../src/contract/definitions';
import type { SettingsPatch } from '../../src/contract/settings';
import type { FoldRecord } from '../../src/core/fold/fold-record';
import { conversationClient, uniqueConversationId } from './conversation';
import { corpusConversation } from './corpus';
import { driveConversation } from './drive';
import { withWorker } from './temporal';

/**
 * Runs the airline corpus session (budget 8 000: it folds; `settings` on top) with `activities`, then queries the fold records on a
 * fresh worker with `replayWith`, which has nothing cached and so replays the whole history.
 * @returns the records the run held, those the replay holds, and the workflow id.
 */
export async function foldAndReplay(
  name: string,
  activities: object,
  replayWith: object,
  settings: SettingsPatch = {}
): Promise<{ held: FoldRecord[]; replayed: FoldRecord[]; workflowId: string }> {
  const taskQueue = `${name}-${process.pid}-${Date.now()}`;
  const id = uniqueConversationId(name);
  const workflowId = conversationWorkflowId(id);
  const held = await withWorker({ activities, taskQueue }, async ({ env }) => {
    const conv = conversationClient(env.client, taskQueue, id, { settings: { budget: 8000, ...settings } });
    await driveConversation(conv, corpusConversation('tau2-bench-gpt41-airline-task18').messages);
    return conv.folds();
  });
  const replayed = await withWorker({ activities: replayWith, taskQueue }, ({ env }) =>
    env.client.workflow.getHandle(workflowId).query(foldsQuery)
  );
  return { held, replayed, workflowId };
}

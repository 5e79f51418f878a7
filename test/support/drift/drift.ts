/**
 * The conversation workflow with one change of logic — it waits on a timer before its first step — for the replay
 * test: made without `patched()` the recorded histories must stop replaying; gated by `patched()` they must not.
 */
import { patched, sleep } from '@temporalio/workflow';
import { conversationWorkflow } from '../../../src/workflows/conversation/conversation';

/** Patch id of the drift when it is gated. */
export const DRIFT_PATCH = 'replay-test-drift';

/** @returns the drifted workflow: with `gated`, the new step runs only where `patched(DRIFT_PATCH)` says so. */
export function driftedConversationWorkflow(gated: boolean): typeof conversationWorkflow {
  return async (input) => {
    if (!gated || patched(DRIFT_PATCH)) await sleep(1);
    return conversationWorkflow(input);
  };
}

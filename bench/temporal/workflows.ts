/**
 * The benchmark's workflow bundle: the conversation workflow as shipped, plus two baselines with the same shape of
 * update (one argument in, a small object out) so their round trips compare with `prepare`'s on the same server.
 */
import { condition, defineUpdate, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { benchActivities } from './activities';

export { conversationWorkflow } from '../../src/workflows/conversation/conversation';

/** Same name and shape on both baselines. */
export const noopUpdate = defineUpdate<{ n: number }, [{ messages: unknown[] }]>('noop');

/** Baseline: an update that returns at once. */
export async function bareUpdateWorkflow(): Promise<void> {
  let n = 0;
  setHandler(noopUpdate, (input) => ({ n: (n += input.messages.length) }));
  await condition(() => false);
}

const local = proxyLocalActivities<typeof benchActivities>({ startToCloseTimeout: '30 seconds' });

/** Baseline: an update that awaits one local activity doing nothing (what any ingest step costs at least). */
export async function localActivityWorkflow(): Promise<void> {
  let n = 0;
  setHandler(noopUpdate, async (input) => {
    await local.noop();
    return { n: (n += input.messages.length) };
  });
  await condition(() => false);
}

/**
 * The benchmark's workflow bundle: the conversation workflow as shipped, plus two baselines with the same shape of
 * update (one argument in, a small object out) so their round trips compare with `prepare`'s on the same server.
 */
import {
  condition,
  defineUpdate,
  proxyLocalActivities,
  proxySinks,
  setHandler,
  type Sinks,
} from '@temporalio/workflow';
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

/** The write-behind baseline's sink: the worker archives and counts the messages after the task that sent them. */
export interface WriteBehindSinks extends Sinks {
  benchArchive: { write(firstSeq: number, messages: unknown[]): void };
}

const writeBehind = proxySinks<WriteBehindSinks>();

/**
 * Baseline: an update that answers at once and hands its messages to a sink, which the worker runs outside the
 * workflow after the task (no local activity, nothing awaited): the least a step that archives and counts after it
 * answers can cost. Not exactly-once (a sink call is lost with a worker that dies before running it).
 */
export async function writeBehindWorkflow(): Promise<void> {
  let n = 0;
  setHandler(noopUpdate, (input) => {
    writeBehind.benchArchive.write(n, input.messages);
    return { n: (n += input.messages.length) };
  });
  await condition(() => false);
}

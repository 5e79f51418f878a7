/**
 * Workflow interceptor: an update whose input is over {@link MAX_UPDATE_INPUT_BYTES} is left unprocessed. Any answer
 * to it (acceptance, rejection, result) would carry the original request back and push the workflow task completion
 * over Temporal's payload limit, failing every task of the conversation; an update the workflow does not process is
 * rejected by the server itself, with a small failure, and nothing of it reaches history.
 */
import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { MAX_UPDATE_INPUT_BYTES } from '../contract/update-size';

interface PayloadLike {
  data?: Uint8Array | null;
  metadata?: Record<string, Uint8Array | null | undefined> | null;
}

/** @returns the bytes of an update's input payloads (data and metadata values). */
export function inputBytes(input: readonly PayloadLike[] | null | undefined): number {
  let bytes = 0;
  for (const p of input ?? []) {
    bytes += p.data?.length ?? 0;
    for (const v of Object.values(p.metadata ?? {})) bytes += v?.length ?? 0;
  }
  return bytes;
}

/** The factory the worker's bundle loads (`workflowInterceptorModules`). */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  internals: [
    {
      activate(input, next) {
        const jobs = input.activation.jobs ?? [];
        // Replayed updates (runValidator false) were accepted, so they fit: only new ones are measured.
        const kept = jobs.filter(
          (job) => !(job.doUpdate?.runValidator && inputBytes(job.doUpdate.input) > MAX_UPDATE_INPUT_BYTES)
        );
        if (kept.length !== jobs.length) input.activation.jobs = kept;
        next(input);
      },
    },
  ],
});

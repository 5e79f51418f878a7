import { patched } from '@temporalio/workflow';

/**
 * Whether this run skips the awaits of an ordinary step that had nothing to wait for (a free lock, no tool count, no
 * lightening, no fold due). Every promise a workflow creates costs the worker a captured stack trace (the SDK's
 * stack-trace query), so an ordinary step awaits only its `ingest`. A run recorded before the change took those
 * awaits, and they moved its commands between microtask turns: it replays them (patch `step-without-idle-awaits`).
 */
export function withoutIdleAwaits(): boolean {
  return patched('step-without-idle-awaits');
}

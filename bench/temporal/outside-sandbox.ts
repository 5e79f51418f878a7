/**
 * Runs workflow code outside Temporal's sandbox, in-process, for CPU measurements of the workflow's own work
 * (bench/step-work.ts). Importing this module first replaces the `@temporalio/workflow` functions that need a
 * workflow context: local activities answer with `activities` (set by the caller; they stand for the worker's
 * activities, so their work is not counted), and the calls that only talk to the server (details, search
 * attributes, sinks, logging) do nothing. Everything else (ApplicationFailure, …) is the real module's.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import type { Activities } from '../../src/activities';

/** The local activities the workflow code calls; set before it runs. */
export const outsideActivities: { current: Partial<Activities> } = { current: {} };

const path = require.resolve('@temporalio/workflow');
const real = require('@temporalio/workflow') as Record<string, unknown>;
const quiet = (): void => undefined;
const activityProxy = (): unknown =>
  new Proxy(
    {},
    {
      get: (_, name: string) => (input: unknown) => {
        const fn = outsideActivities.current[name as keyof Activities] as ((i: unknown) => unknown) | undefined;
        if (!fn) throw new Error(`outside the sandbox: no activity '${name}'`);
        return Promise.resolve(fn(input));
      },
    }
  );
const stub: Record<string, unknown> = {
  ...real,
  proxyLocalActivities: activityProxy,
  proxyActivities: activityProxy,
  proxySinks: () => new Proxy({}, { get: () => new Proxy({}, { get: () => quiet }) }),
  log: { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet },
  setCurrentDetails: quiet,
  upsertSearchAttributes: quiet,
  currentUpdateInfo: () => undefined,
  patched: () => true,
  workflowInfo: () => ({
    workflowId: 'outside-sandbox',
    historySize: 0,
    historyLength: 0,
    continueAsNewSuggested: false,
    typedSearchAttributes: { get: () => undefined },
  }),
  condition: () => Promise.resolve(true),
};
require.cache[path]!.exports = stub;

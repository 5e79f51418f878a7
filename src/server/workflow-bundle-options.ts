/**
 * How every bundle of the conversation workflow is built (`bundleWorkflowCode` options, or a source worker's
 * `interceptors.workflowModules` and `bundlerOptions`). Not workflow code: read by the worker when it bundles.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The workflow interceptor modules every worker of the conversation workflow loads. */
export const workflowInterceptorModules: string[] = [require.resolve('../workflows/oversized-updates')];

/**
 * Modules evaluated once per reusable V8 context and shared by every workflow run in it (`preloadModules`): the pure
 * core and the input schemas, with what they import. Without preloading, a workflow's module scope (mostly building
 * the schemas) runs again at every workflow creation (a new conversation, a cache miss, a replay) and every cached
 * run holds its own copy. They keep no per-run state and import nothing from Temporal; the worker deep-freezes them
 * (test/workflows/bundle-contents.test.ts, test/contract/schemas/leaves.test.ts).
 */
export const workflowPreloadModules: string[] = [
  ...modulesUnder(join(__dirname, '..', 'core')),
  require.resolve('../contract/schemas/arguments'),
  require.resolve('../workflows/conversation/carried-schema'),
];

/** @returns every module file under `dir` (sources or compiled: `.ts` or `.js`, no declarations), sorted. */
function modulesUnder(dir: string): string[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  return files
    .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f))
    .sort();
}

/** The options every `bundleWorkflowCode` of the conversation workflow takes. */
export const workflowBundleOptions = {
  workflowInterceptorModules,
  preloadModules: workflowPreloadModules,
} as const;

/**
 * Where a worker gets its workflow code: the bundles `npm run build` wrote next to the compiled JavaScript (no
 * compiling at start), or, when running from the TypeScript sources (tests, development), the workflows module that
 * the SDK bundles at every start.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DataConverter } from '@temporalio/common';

/** The prebuilt bundles' file names in dist/: one without and one with the encrypting failure converter. */
export const WORKFLOW_BUNDLE_FILES = {
  plain: 'workflow-bundle.js',
  encrypted: 'workflow-bundle-encrypted.js',
} as const;

/**
 * A workflow source for `Worker.create` and `Worker.runReplayHistory`: the sources with the workflow interceptors the
 * SDK bundles in at start, or a prebuilt bundle (built with them, see `build-workflow-bundles.ts`).
 */
export type WorkflowSource =
  | { workflowsPath: string; interceptors: { workflowModules: string[] }; bundlerOptions: { preloadModules: string[] } }
  | { workflowBundle: { codePath: string } };

/** Thrown when a compiled worker finds no prebuilt bundle (a partial build or a broken install). */
export class WorkflowBundleMissingError extends Error {
  constructor(path: string) {
    super(`the prebuilt workflow bundle ${path} is missing: run 'npm run build' (or reinstall the package)`);
    this.name = 'WorkflowBundleMissingError';
  }
}

/** Whether this module runs from the TypeScript sources (through tsx) rather than from dist/. */
export const runningFromSources = __filename.endsWith('.ts');

/**
 * The workflow code for a worker with this data converter. A bundle must have been built with the same failure
 * converter as the worker's data converter, so an encrypting worker loads the encrypted bundle.
 * @returns `{ workflowsPath }` from src/ (bundled at start), else `{ workflowBundle }` from dist/.
 * @throws WorkflowBundleMissingError when compiled and the bundle file does not exist.
 */
export function workflowSource(dataConverter: DataConverter = {}): WorkflowSource {
  if (runningFromSources) {
    // Loaded only here: a compiled worker takes its interceptors from the bundle, and its dist/ may hold no sources.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { workflowInterceptorModules, workflowPreloadModules } = require('./workflow-bundle-options') as {
      workflowInterceptorModules: string[];
      workflowPreloadModules: string[];
    };
    return {
      workflowsPath: require.resolve('../workflows'),
      interceptors: { workflowModules: workflowInterceptorModules },
      bundlerOptions: { preloadModules: workflowPreloadModules },
    };
  }
  const file = dataConverter.failureConverterPath ? WORKFLOW_BUNDLE_FILES.encrypted : WORKFLOW_BUNDLE_FILES.plain;
  const codePath = join(__dirname, '..', file);
  if (!existsSync(codePath)) throw new WorkflowBundleMissingError(codePath);
  return { workflowBundle: { codePath } };
}

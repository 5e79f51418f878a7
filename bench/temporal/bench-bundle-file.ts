/**
 * The benchmark bundle (the conversation workflow as shipped, plus the bare baselines) written to a file, with the
 * workflow interceptors the production worker loads, for spawned workers' `WORKFLOW_BUNDLE`: a worker process then
 * runs both the conversations and the baselines as the real worker would.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../../src/server/workflow-bundle-options';

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

/** @returns the path of a fresh file holding the bundle. */
export async function writeBenchBundle(): Promise<string> {
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('./workflows'),
    ...workflowBundleOptions,
    logger: quiet,
  });
  const path = join(mkdtempSync(join(tmpdir(), 'dc-bench-bundle-')), 'workflows.js');
  writeFileSync(path, bundle.code);
  return path;
}

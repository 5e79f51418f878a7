/**
 * `npm run build`'s second step: bundles the compiled workflows (dist/workflows) once, ahead of time, into the files
 * {@link workflowSource} loads, so a worker started from dist/ never runs webpack.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../codec/data-converter';
import { workflowBundleOptions } from './workflow-bundle-options';
import { WORKFLOW_BUNDLE_FILES } from './workflow-source';

/**
 * Writes both bundles into `outDir`.
 * @returns the paths written.
 */
export async function buildWorkflowBundles(outDir: string): Promise<string[]> {
  const workflowsPath = require.resolve('../workflows');
  const variants = [
    { file: WORKFLOW_BUNDLE_FILES.plain, extra: {} },
    { file: WORKFLOW_BUNDLE_FILES.encrypted, extra: { failureConverterPath: FAILURE_CONVERTER_PATH } },
  ];
  const written: string[] = [];
  for (const { file, extra } of variants) {
    const { code } = await bundleWorkflowCode({
      workflowsPath,
      ...workflowBundleOptions,
      logger: new DefaultLogger('WARN'),
      ...extra,
    });
    const path = join(outDir, file);
    await writeFile(path, code);
    written.push(path);
  }
  return written;
}

if (require.main === module) {
  buildWorkflowBundles(join(__dirname, '..')).then(
    (paths) => console.log(`workflow bundles: ${paths.join(', ')}`),
    (err: unknown) => {
      console.error(`workflow bundle failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    }
  );
}

// The workflow bundle is what every worker evaluates for every conversation it replays: it must hold workflow code
// only (determinism: no I/O library, tokenizer or database driver), and every module in it costs a fresh worker time
// before it can answer (the bundle is compiled into each worker's V8 context).
import { strict as assert } from 'node:assert';
import { bundleWorkflowCode } from '@temporalio/worker';

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

/** @returns the package name of a bundled `node_modules/...` module path. */
function packageOf(path: string): string {
  const parts = path.split('/');
  return parts[1]!.startsWith('@') ? `${parts[1]}/${parts[2]}` : parts[1]!;
}

describe('the workflow bundle', function () {
  this.timeout(120_000);

  it('holds only workflow code: the Temporal workflow runtime and our pure layers, no I/O library', async () => {
    const { code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../src/workflows'),
      logger: quiet,
    });
    // Module ids are paths relative to the bundling process's directory: keep them from node_modules/ or src/ on.
    const modules = [...code.matchAll(/^\/\*\*\*\/ "([^"]+)"/gm)].map((m) =>
      m[1]!.replace(/^.*?(?=node_modules\/|src\/)/, '')
    );
    assert.ok(modules.length > 50, `the bundle lists its modules (${modules.length})`);
    const packages = [...new Set(modules.filter((m) => m.startsWith('node_modules/')).map(packageOf))].sort();
    // zod (v4-mini) checks every handler's input in the sandbox (src/contract/schemas).
    assert.deepEqual(packages, ['@temporalio/common', '@temporalio/workflow', 'long', 'ms', 'nexus-rpc', 'zod']);
    const ours = modules.filter((m) => m.startsWith('src/'));
    assert.ok(ours.some((m) => m.startsWith('src/workflows/')) && ours.some((m) => m.startsWith('src/core/')));
    assert.deepEqual(
      ours.filter((m) => !/^src\/(core|contract|workflows|visibility)\//.test(m)),
      [],
      'only the core, the contract, the workflows and the visibility renderers'
    );
  });
});

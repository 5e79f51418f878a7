// The workflow bundle is what every worker evaluates for every conversation it replays: it must hold workflow code
// only (determinism: no I/O library, tokenizer or database driver), and every module in it costs a fresh worker time
// before it can answer (the bundle is compiled into each worker's V8 context).
import { strict as assert } from 'node:assert';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions, workflowPreloadModules } from '../../src/server/workflow-bundle-options';

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

/** @returns each bundled module's id with the ids of the modules it requires. */
function moduleGraph(code: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of code.split('\n')) {
    const start = /^\/\*\*\*\/ "([^"]+)"\s*$/.exec(line);
    if (start) graph.set(start[1]!, (current = new Set()));
    else if (current)
      for (const m of line.matchAll(/__webpack_require__\(\/\*! [^*]* \*\/ "([^"]+)"\)/g)) current.add(m[1]!);
  }
  return graph;
}

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
      ...workflowBundleOptions,
      logger: quiet,
    });
    // Module ids are paths relative to the bundling process's directory: keep them from node_modules/ or src/ on.
    const modules = [...code.matchAll(/^\/\*\*\*\/ "([^"]+)"/gm)].map((m) =>
      m[1]!.replace(/^.*?(?=node_modules\/|src\/)/, '')
    );
    assert.ok(modules.length > 50, `the bundle lists its modules (${modules.length})`);
    const packages = [...new Set(modules.filter((m) => m.startsWith('node_modules/')).map(packageOf))].sort();
    // zod (v4-mini) checks every handler's input in the sandbox (src/contract/schemas).
    // porter2 (a pure stemmer, no I/O) comes in with the ledger's sentence module; workflow code never calls it.
    assert.deepEqual(packages, [
      '@temporalio/common',
      '@temporalio/workflow',
      'long',
      'ms',
      'nexus-rpc',
      'porter2',
      'zod',
    ]);
    const ours = modules.filter((m) => m.startsWith('src/'));
    assert.ok(ours.some((m) => m.startsWith('src/workflows/')) && ours.some((m) => m.startsWith('src/core/')));
    assert.deepEqual(
      ours.filter((m) => !/^src\/(core|contract|workflows|visibility)\//.test(m)),
      [],
      'only the core, the contract, the workflows and the visibility renderers'
    );
  });

  it('preloads (shares between runs) only the pure core and the schemas: nothing from Temporal', async () => {
    const { code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../src/workflows'),
      ...workflowBundleOptions,
      logger: quiet,
    });
    const graph = moduleGraph(code);
    const idOf = (path: string): string => {
      const id = [...graph.keys()].find((k) => path.endsWith(k.replace(/^\.\//, '')));
      assert.ok(id, `the bundle holds the preloaded module ${path}`);
      return id;
    };
    const shared = new Set<string>();
    const queue = workflowPreloadModules.map(idOf);
    while (queue.length > 0) {
      const id = queue.pop()!;
      if (shared.has(id)) continue;
      shared.add(id);
      queue.push(...(graph.get(id) ?? []));
    }
    const ids = [...shared];
    assert.ok(
      ids.some((id) => id.includes('node_modules/zod/')),
      'the schemas bring zod along'
    );
    // A shared module is evaluated before any run exists and deep-frozen: Temporal's workflow runtime keeps per-run
    // state, and the workflows' own modules hold handlers and mutable state.
    assert.deepEqual(
      ids.filter(
        (id) => id.includes('@temporalio/') || (id.includes('src/workflows/') && !id.endsWith('carried-schema.ts'))
      ),
      []
    );
    assert.deepEqual(
      ids.filter(
        (id) => id.includes('src/') && !/src\/(contract|core)\//.test(id) && !id.endsWith('carried-schema.ts')
      ),
      [],
      'only the contract, the pure core and the carried state schema'
    );
  });
});

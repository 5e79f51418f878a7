import { strict as assert } from 'node:assert';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FAILURE_CONVERTER_PATH } from '../../src/codec/data-converter';
import * as sourceModule from '../../src/server/workflow-source';
import { ensureBuilt } from '../support/built-package';
import { repoRoot } from '../support/processes';

type WorkflowSourceModule = typeof sourceModule;

/** Loads a compiled copy of the module (not the TypeScript one this test imports). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = (path: string) => require(path) as WorkflowSourceModule;

describe('workflowSource: the prebuilt bundle when compiled, the sources in development', function () {
  this.timeout(300_000);

  before(async function () {
    this.timeout(300_000);
    await ensureBuilt();
  });

  it('from src/ (tsx): the workflows module, bundled by the SDK at start with the interceptors and preloads', () => {
    const source = sourceModule.workflowSource({});
    const preloaded = 'bundlerOptions' in source ? source.bundlerOptions.preloadModules : [];
    assert.deepEqual(source, {
      workflowsPath: resolve(repoRoot, 'src', 'workflows', 'index.ts'),
      interceptors: { workflowModules: [resolve(repoRoot, 'src', 'workflows', 'oversized-updates.ts')] },
      bundlerOptions: { preloadModules: preloaded },
    });
    // The pure core (every module of it, from the sources) and the schemas the handlers check their input with.
    assert.ok(preloaded.includes(resolve(repoRoot, 'src', 'core', 'plan', 'plan.ts')), preloaded.join('\n'));
    assert.ok(preloaded.includes(resolve(repoRoot, 'src', 'contract', 'schemas', 'arguments.ts')));
    assert.ok(preloaded.includes(resolve(repoRoot, 'src', 'workflows', 'conversation', 'carried-schema.ts')));
    assert.deepEqual(
      preloaded.filter((p) => !p.endsWith('.ts') || p.endsWith('.d.ts')),
      [],
      'sources only, no declarations'
    );
  });

  it('from dist/: the plain bundle, or the one with the encrypting failure converter', () => {
    const compiled = load(resolve(repoRoot, 'dist', 'server', 'workflow-source.js'));
    const plain = resolve(repoRoot, 'dist', 'workflow-bundle.js');
    const encrypted = resolve(repoRoot, 'dist', 'workflow-bundle-encrypted.js');
    assert.deepEqual(compiled.workflowSource({}), { workflowBundle: { codePath: plain } });
    assert.deepEqual(compiled.workflowSource({ failureConverterPath: FAILURE_CONVERTER_PATH }), {
      workflowBundle: { codePath: encrypted },
    });
    assert.ok(existsSync(plain) && existsSync(encrypted), 'npm run build wrote both');
  });

  it('a compiled copy without its bundle says to build (WorkflowBundleMissingError)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dc-no-bundle-'));
    mkdirSync(join(dir, 'server'));
    copyFileSync(resolve(repoRoot, 'dist', 'server', 'workflow-source.js'), join(dir, 'server', 'workflow-source.js'));
    const lonely = load(join(dir, 'server', 'workflow-source.js'));
    assert.throws(() => lonely.workflowSource({}), {
      name: 'WorkflowBundleMissingError',
      message: `the prebuilt workflow bundle ${join(dir, 'workflow-bundle.js')} is missing: run 'npm run build' (or reinstall the package)`,
    });
  });
});

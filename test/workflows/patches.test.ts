import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { patchCallProblems, registryProblems } from '../../scripts/check-patches';
import { PATCHES } from '../../src/workflows/patches';

const root = resolve(__dirname, '..', '..');

/** Runs the check as `npm run lint` does. @returns its exit status and error output. */
function runCheck(dir?: string): { status: number | null; stderr: string } {
  const args = ['--require', 'tsx/cjs', join(root, 'scripts', 'check-patches.ts'), ...(dir ? [dir] : [])];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('patch registry and its lint check', function () {
  this.timeout(60_000);

  it('the registry is well formed (only the patches added since the 1.0 baseline)', () => {
    assert.deepEqual(registryProblems(PATCHES), []);
    assert.deepEqual(
      PATCHES.map((p) => p.id),
      ['start-over-new-target', 'fold-record-activity', 'step-without-idle-awaits']
    );
  });

  it('passes on the project: src/ calls no patch outside the registry', () => {
    const r = runCheck();
    assert.equal(r.status, 0, r.stderr);
  });

  it('fails on a patched() call whose id is not registered, naming the file, line and id', () => {
    const dir = mkdtempSync(join(tmpdir(), 'patches-'));
    try {
      mkdirSync(join(dir, 'workflows'));
      writeFileSync(
        join(dir, 'workflows', 'drift.ts'),
        "import { patched } from '@temporalio/workflow';\n\nexport const f = () => patched('not-in-the-registry');\n"
      );
      const r = runCheck(dir);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /drift\.ts:3: patched\('not-in-the-registry'\) names a patch id missing from/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('accepts registered ids; refuses unregistered ones, deprecatePatch and wf.patched included, and non-literals', () => {
    const source = [
      "patched('known');",
      "deprecatePatch('known');",
      "wf.patched('unknown-a');",
      "deprecatePatch('unknown-b');",
      'patched(ID);',
      "notAPatch('unknown-c');",
    ].join('\n');
    assert.deepEqual(patchCallProblems('x.ts', source, new Set(['known'])), [
      "x.ts:3: patched('unknown-a') names a patch id missing from src/workflows/patches.ts",
      "x.ts:4: deprecatePatch('unknown-b') names a patch id missing from src/workflows/patches.ts",
      'x.ts:5: patched() must name its patch id as a string literal',
    ]);
  });

  it("refuses any patch call in the Compactor's files, which would write markers into its host's history", () => {
    assert.deepEqual(
      patchCallProblems('src/workflows/compactor/compactor-state.ts', "patched('known');", new Set(['known'])),
      [
        "src/workflows/compactor/compactor-state.ts:1: the Compactor runs in its host's workflow: version it through COMPACTOR_VERSION",
      ]
    );
  });

  it('refuses any patch call in the fold step the Compactor stands on, but not in the conversation room', () => {
    assert.deepEqual(patchCallProblems('src/workflows/fold/fold-step.ts', "patched('known');", new Set(['known'])), [
      "src/workflows/fold/fold-step.ts:1: the Compactor runs in its host's workflow: version it through COMPACTOR_VERSION",
    ]);
    assert.deepEqual(
      patchCallProblems('src/workflows/conversation/conversation.ts', "patched('known');", new Set(['known'])),
      []
    );
  });

  it('refuses a registry entry listed twice, not kebab-case, undated or without a reason', () => {
    const entry = { id: 'a-change', since: '2026-12-02', why: 'w', retire: 'r' };
    assert.deepEqual(registryProblems([entry]), []);
    assert.deepEqual(registryProblems([entry, entry, { ...entry, id: 'Bad_Id', since: 'today', why: ' ' }]), [
      "patches.ts: 'a-change' is listed twice",
      "patches.ts: 'Bad_Id' is not a kebab-case id",
      "patches.ts: 'Bad_Id' since 'today' is not YYYY-MM-DD",
      "patches.ts: 'Bad_Id' needs a why and a retire",
    ]);
  });
});

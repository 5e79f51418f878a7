/**
 * The bench pipeline at its quick size (`BENCH_QUICK=1 npm run bench`), so neither a benchmark nor the report can
 * break unseen. No timed assertion: the figures of a quick run on a shared CI machine say nothing; what is checked
 * is that every default benchmark ran to the end, wrote results of the quick shape, and the report was built from
 * them, in a temporary directory (bench/results, the measured figures, stay untouched).
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

function runQuickBench(dir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      ['--require', 'tsx/cjs', join(ROOT, 'bench', 'run.ts')],
      {
        cwd: ROOT,
        env: { ...process.env, BENCH_QUICK: '1', BENCH_RESULTS: dir },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr })
    );
    child.stdin?.end();
  });
}

const json = <T>(dir: string, name: string): T => JSON.parse(readFileSync(join(dir, name), 'utf8')) as T;

describe('bench pipeline at its quick size (BENCH_QUICK=1)', function () {
  this.timeout(300_000);
  let dir: string;
  let outcome: { code: number | null; output: string };
  const measured = join(ROOT, 'bench', 'results', 'overhead.json');
  let measuredBefore: number;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dc-bench-quick-'));
    measuredBefore = statSync(measured).mtimeMs;
    outcome = await runQuickBench(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs every default benchmark to the end', () => {
    assert.equal(outcome.code, 0, outcome.output.slice(-4000));
    const run = json<{ seconds: Record<string, number> }>(dir, 'run.json');
    assert.deepEqual(Object.keys(run.seconds), ['overhead', 'growth', 'scale', 'cost', 'workflow']);
  });

  it('runs the workflow as the worker does (its metric sinks registered)', () => {
    assert.doesNotMatch(outcome.output, /unregistered external sink/);
  });

  it('writes results of the quick shape', () => {
    const overhead = json<{ samples: number; latency: Record<string, { n: number; p50: number }> }>(
      dir,
      'overhead.json'
    );
    assert.equal(overhead.samples, 20);
    for (const [variant, l] of Object.entries(overhead.latency)) {
      assert.equal(l.n, 20, variant);
      assert.ok(l.p50 > 0, `${variant} p50 ${l.p50}`);
    }
    const growth = json<{ steps: number; perStep: unknown[] }>(dir, 'growth.json');
    assert.equal(growth.steps, 40);
    type Side = { stepsDone: number; cores: { server: number; worker: number } };
    type Row = {
      conversations: number;
      steps: number;
      workers: number;
      conversation: Side;
      bare: Side;
      localActivity: Side;
      writeBehind: Side;
      writeBehindArchived: number;
    };
    const scale = json<{ rows: Row[]; secondWorker: Row }>(dir, 'scale.json');
    assert.deepEqual(
      [...scale.rows, scale.secondWorker].map((r) => [r.conversations, r.steps, r.workers]),
      [
        [20, 2, 1],
        [60, 2, 1],
        [60, 2, 2],
      ]
    );
    // Every baseline ran every step beside the conversations, and every process's CPU was sampled.
    for (const r of [...scale.rows, scale.secondWorker]) {
      for (const side of [r.conversation, r.bare, r.localActivity, r.writeBehind]) {
        assert.equal(side.stepsDone, r.conversations * r.steps, JSON.stringify(r));
        assert.ok(side.cores.server > 0 && side.cores.worker > 0, JSON.stringify(side.cores));
      }
      // The write-behind baseline did its work: its sink archived every message its steps sent.
      assert.equal(r.writeBehindArchived, 1, JSON.stringify(r));
    }
    const cost = json<{ rows: { session: string }[] }>(dir, 'cost.json');
    assert.equal(new Set(cost.rows.map((r) => r.session)).size, 2);
    const workflow = json<{ rows: { prepares: number; folds: number }[] }>(dir, 'workflow.json');
    assert.equal(workflow.rows.length, 1);
    assert.ok(workflow.rows[0]!.prepares > 0 && workflow.rows[0]!.folds > 0, JSON.stringify(workflow.rows[0]));
  });

  it('builds the report and its plots from them', () => {
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    for (const section of [
      '## Per-step overhead',
      '## Growth with conversation length',
      '## Scale: conversations on one worker',
      '## Session cost on the corpus',
      '## Corpus sessions through the workflow',
    ]) {
      assert.ok(report.includes(section), `report.md lacks '${section}'`);
    }
    assert.doesNotMatch(report, /NaN|undefined/);
    for (const svg of ['overhead.svg', 'growth.svg']) {
      assert.match(readFileSync(join(dir, svg), 'utf8'), /^<svg[\s\S]*<\/svg>\s*$/);
    }
  });

  it('leaves the measured results in bench/results alone', () => {
    assert.equal(statSync(measured).mtimeMs, measuredBefore);
  });
});

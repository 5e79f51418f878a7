import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const architecture = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

/** One row of the walk table in docs/architecture.md, "One `prepare` through the layers". */
interface Step {
  step: number;
  fn: string;
  file: string;
  calls: { name: string; activity: boolean }[];
}

/** @returns the walk's rows, read from the section's table. */
function walk(): Step[] {
  const start = architecture.indexOf('## One `prepare` through the layers');
  const section = architecture.slice(start, architecture.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((l) => /^\|\s*\d+\s*\|/.test(l));
  return rows.map((row) => {
    const [step, fn, file, calls] = row
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const names = [...calls!.matchAll(/(activity\s+)?`([A-Za-z]+)`/g)].map((m) => ({
      name: m[2]!,
      activity: m[1] !== undefined,
    }));
    return { step: Number(step), fn: fn!.replace(/`/g, ''), file: file!.replace(/`/g, ''), calls: names };
  });
}

/** @returns whether `source` defines `fn` (`name` or `Class.method`). */
function defines(source: string, fn: string): boolean {
  const [owner, method] = fn.includes('.') ? fn.split('.') : [undefined, fn];
  if (owner !== undefined && !new RegExp(`\\bclass ${owner}\\b`).test(source)) return false;
  return owner !== undefined
    ? new RegExp(`\\n\\s+(?:private |readonly )*(?:async )?${method}\\s*[<(]`).test(source)
    : new RegExp(`\\bfunction ${method}\\s*[<(]`).test(source);
}

describe('the walk of one prepare in docs/architecture.md is true', () => {
  const steps = walk();

  it('has the walk, numbered in order (so the checks below are not vacuous)', () => {
    assert.ok(steps.length >= 5, `rows: ${steps.length}`);
    assert.deepEqual(
      steps.map((s) => s.step),
      steps.map((_, i) => i + 1)
    );
  });

  it('passes through at most ten functions in at most five files', () => {
    assert.ok(new Set(steps.map((s) => s.fn)).size <= 10, 'more than ten functions');
    const files = new Set(steps.map((s) => s.file));
    assert.ok(files.size <= 5, `more than five files: ${[...files].join(', ')}`);
  });

  for (const s of walk()) {
    it(`step ${s.step}: ${s.file} defines ${s.fn} and calls ${s.calls.map((c) => c.name).join(', ')}`, () => {
      assert.ok(existsSync(join(root, s.file)), `${s.file} exists`);
      const source = readFileSync(join(root, s.file), 'utf8');
      assert.ok(defines(source, s.fn), `${s.file} defines ${s.fn}`);
      assert.ok(s.calls.length > 0, 'the row names what it calls');
      for (const c of s.calls) {
        const called = c.activity ? new RegExp(`\\.${c.name}\\b`) : new RegExp(`\\b${c.name}\\s*[(<]`);
        assert.match(source, called, `${s.file} calls ${c.activity ? 'the activity ' : ''}${c.name}`);
      }
    });
  }
});

import { strict as assert } from 'node:assert';
import { diffLines, lineDiff, MAX_DIFF_CELLS, type LineDiff } from '../../src/core/line-diff';
import { mulberry32 } from '../support/rng';

/** Applies a diff to the old text's lines: what the new text must be. */
function apply(before: string, diff: LineDiff): string {
  const lines = before.split('\n');
  const out: string[] = [];
  let at = 0;
  for (const h of diff.hunks) {
    while (at < h.oldStart - 1) out.push(lines[at++]!);
    assert.deepEqual(lines.slice(at, at + h.removed.length), h.removed, 'a hunk removes the lines that are there');
    at += h.removed.length;
    assert.equal(out.length + 1, h.newStart, 'a hunk starts where it says in the new text');
    out.push(...h.added);
  }
  while (at < lines.length) out.push(lines[at++]!);
  return out.join('\n');
}

/** The LCS length by plain memoised recursion (independent of the table the diff fills). */
function lcsLength(a: string[], b: string[]): number {
  const memo = new Map<string, number>();
  const go = (i: number, j: number): number => {
    if (i === a.length || j === b.length) return 0;
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const v = a[i] === b[j] ? 1 + go(i + 1, j + 1) : Math.max(go(i + 1, j), go(i, j + 1));
    memo.set(key, v);
    return v;
  };
  return go(0, 0);
}

describe('lineDiff', () => {
  it('reports nothing for the same lines, and one hunk for a changed line', () => {
    assert.deepEqual(lineDiff('a\nb', 'a\nb'), { added: 0, removed: 0, hunks: [] });
    const d = lineDiff('Task: ship\nRules: none\nFacts: x=1', 'Task: ship\nRules: never on Friday\nFacts: x=1');
    assert.deepEqual(diffLines(d), ['@@ -2,1 +2,1 @@', '- Rules: none', '+ Rules: never on Friday']);
  });

  it('turns the old text into the new one with the fewest changed lines (random texts)', () => {
    const rand = mulberry32(25);
    const words = ['rule', 'fact', 'goal', 'task', 'note', ''];
    const text = (n: number): string =>
      Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]!).join('\n');
    for (let k = 0; k < 300; k++) {
      const before = text(Math.floor(rand() * 12));
      const after = text(Math.floor(rand() * 12));
      const d = lineDiff(before, after);
      assert.equal(apply(before, d), after, `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
      const a = before.split('\n');
      const b = after.split('\n');
      assert.equal(d.added + d.removed, a.length + b.length - 2 * lcsLength(a, b), 'a minimal edit');
    }
  });

  it('reports a changed middle past the table limit as one hunk, still exact', () => {
    const side = Math.ceil(Math.sqrt(MAX_DIFF_CELLS)) + 1;
    const before = ['head', ...Array.from({ length: side }, (_, i) => `old ${i}`), 'tail'].join('\n');
    const after = ['head', ...Array.from({ length: side }, (_, i) => `new ${i}`), 'tail'].join('\n');
    const d = lineDiff(before, after);
    assert.equal(d.hunks.length, 1);
    assert.equal(d.removed, side);
    assert.equal(apply(before, d), after);
  });
});

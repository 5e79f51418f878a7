/**
 * A small line diff (longest common subsequence), for showing how one fold's summary differs from the previous one.
 * Pure and deterministic; no dependency.
 */

/** One hunk of changed lines: where it starts in each text (1-based) and the lines removed and added. */
export interface DiffHunk {
  oldStart: number;
  newStart: number;
  removed: string[];
  added: string[];
}

/** A diff of two texts by lines. */
export interface LineDiff {
  added: number;
  removed: number;
  hunks: DiffHunk[];
}

/**
 * Largest table the LCS may fill (changed lines before × changed lines after, once the common start and end are
 * set aside): about 4 MB of `Uint32Array`s. Past it the changed middle is reported as one hunk.
 */
export const MAX_DIFF_CELLS = 1_000_000;

/**
 * Diffs `before` and `after` line by line.
 * @returns the hunks of changed lines (none when the texts have the same lines) and how many lines each side changed.
 */
export function lineDiff(before: string, after: string): LineDiff {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  const ops = x.length * y.length > MAX_DIFF_CELLS ? wholeBlock(x, y) : lcsOps(x, y);
  const hunks: DiffHunk[] = [];
  let i = 0;
  let j = 0;
  let open: DiffHunk | null = null;
  for (const op of ops) {
    if (op === '=') {
      open = null;
      i++;
      j++;
      continue;
    }
    if (!open) {
      open = { oldStart: start + i + 1, newStart: start + j + 1, removed: [], added: [] };
      hunks.push(open);
    }
    if (op === '-') open.removed.push(x[i++]!);
    else open.added.push(y[j++]!);
  }
  return {
    added: hunks.reduce((n, h) => n + h.added.length, 0),
    removed: hunks.reduce((n, h) => n + h.removed.length, 0),
    hunks,
  };
}

/** @returns the hunks as unified-diff lines without context: `@@ -a,n +b,m @@`, then `- removed` and `+ added`. */
export function diffLines(diff: LineDiff): string[] {
  return diff.hunks.flatMap((h) => [
    `@@ -${h.oldStart},${h.removed.length} +${h.newStart},${h.added.length} @@`,
    ...h.removed.map((l) => `- ${l}`),
    ...h.added.map((l) => `+ ${l}`),
  ]);
}

type Op = '=' | '-' | '+';

function wholeBlock(x: readonly string[], y: readonly string[]): Op[] {
  return [...x.map((): Op => '-'), ...y.map((): Op => '+')];
}

/** The edit script of an LCS table: removals before additions within a change. */
function lcsOps(x: readonly string[], y: readonly string[]): Op[] {
  const n = x.length;
  const m = y.length;
  // suffix[i][j] = LCS length of x[i..] and y[j..], rows of m + 1 cells.
  const suffix = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      suffix[i]![j] = x[i] === y[j] ? suffix[i + 1]![j + 1]! + 1 : Math.max(suffix[i + 1]![j]!, suffix[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      ops.push('=');
      i++;
      j++;
    } else if (suffix[i + 1]![j]! >= suffix[i]![j + 1]!) {
      ops.push('-');
      i++;
    } else {
      ops.push('+');
      j++;
    }
  }
  while (i++ < n) ops.push('-');
  while (j++ < m) ops.push('+');
  return ops;
}

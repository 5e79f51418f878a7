/**
 * The fold lines of the workflow's current details in the Temporal UI.
 */
import type { FoldProgress } from '../contract/fold-progress';

/**
 * The workflow's current details for the Temporal UI (markdown; setting them writes no history event).
 * @returns a few lines on the fold in flight, or on the last fold when none is.
 */
export function foldDetails(
  progress: FoldProgress | null,
  last: {
    number: number;
    ok: boolean;
    fallback?: boolean;
    finishedAt: number;
    error: { message: string } | null;
  } | null
): string {
  const lines: string[] = [];
  if (progress) {
    const range = progress.expected.archiveRange;
    const what = range ? `messages #${range.firstSeq}–#${range.lastSeq}` : `the first ${progress.expected.split} items`;
    lines.push(`**Compacting** (${progress.phase}): folding ${what} since ${new Date(progress.since).toISOString()}`);
    lines.push(`attempt ${progress.attempt}${progress.lastError ? `; last error: ${progress.lastError}` : ''}`);
  } else {
    lines.push('**Idle**: no fold in flight');
  }
  if (last) {
    const how = last.ok ? (last.fallback ? 'applied (offline fallback)' : 'applied') : `failed: ${last.error?.message}`;
    lines.push(`last fold #${last.number} ${how} at ${new Date(last.finishedAt).toISOString()}`);
  }
  return lines.join('\n\n');
}

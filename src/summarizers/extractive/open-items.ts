/** Open items of the head: calls still unanswered and the latest task list's unfinished entries. */
import { clip } from '../../core/fold/clip';
import type { Item } from '../../core/messages/types';
import { keyArgument } from './key-argument';

interface TaskLike {
  status?: unknown;
  content?: unknown;
  title?: unknown;
  task?: unknown;
  subject?: unknown;
}

function taskList(args: string): TaskLike[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object') return undefined;
  for (const v of Object.values(parsed as Record<string, unknown>)) {
    if (
      Array.isArray(v) &&
      v.length > 0 &&
      v.every((t) => t !== null && typeof t === 'object' && 'status' in (t as object))
    ) {
      return v as TaskLike[];
    }
  }
  return undefined;
}

/**
 * The open items, as digest lines.
 *
 * @returns `pending call: …` lines, then `unfinished: …` lines from the latest task list written by a tool call
 */
export function openItems(items: readonly Item[], argClip: number): string[] {
  const answered = new Set<string>();
  for (const item of items) if (item.answers) answered.add(`${item.answers.itemIndex}:${item.answers.callIndex}`);
  const lines: string[] = [];
  let latestTasks: TaskLike[] | undefined;
  for (const item of items) {
    item.calls.forEach((call, c) => {
      if (!answered.has(`${item.index}:${c}`)) {
        lines.push(`- pending call: ${call.name}(${clip(keyArgument(call.arguments), argClip)})`);
      }
      latestTasks = taskList(call.arguments) ?? latestTasks;
    });
  }
  for (const t of latestTasks ?? []) {
    const status = typeof t.status === 'string' ? t.status : '';
    if (/^(completed|done|closed|cancelled)$/i.test(status)) continue;
    const what = [t.content, t.title, t.task, t.subject].find((x) => typeof x === 'string');
    if (typeof what === 'string') lines.push(`- unfinished (${status || 'open'}): ${clip(what, argClip * 2)}`);
  }
  return lines;
}

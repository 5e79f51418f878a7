/** A task list written by a tool call (TodoWrite and its kin): an array of objects that each have a `status`. */

/** One task of a list, as written by the agent. */
export interface TaskLike {
  status?: unknown;
  content?: unknown;
  title?: unknown;
  task?: unknown;
  subject?: unknown;
}

/**
 * The task list in a call's JSON arguments, if it carries one.
 *
 * @returns the tasks, or `undefined` when the arguments hold no list of objects with a `status`
 */
export function taskList(args: string): TaskLike[] | undefined {
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

/** @returns the task's text (`content`, `title`, `task` or `subject`), if it has one */
export function taskText(t: TaskLike): string | undefined {
  const what = [t.content, t.title, t.task, t.subject].find((x) => typeof x === 'string');
  return typeof what === 'string' ? what : undefined;
}

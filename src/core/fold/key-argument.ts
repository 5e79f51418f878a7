/** The one argument that says what a tool call did: the file it read, the command it ran, the record it fetched. */
import { oneLine } from './text-clip';

// Arguments that name the target of an action, most telling first.
const KEY_ARGUMENTS = [
  'file_path',
  'path',
  'filePath',
  'filename',
  'notebook_path',
  'command',
  'cmd',
  'url',
  'pattern',
  'query',
  'reservation_id',
  'order_id',
  'user_id',
  'id',
  'name',
  'description',
  'prompt',
];

/**
 * Renders a call's arguments for one line: the key argument's value when there is one, else the short scalar
 * arguments as `k=v`.
 *
 * @returns the rendering (not clipped; "" when the arguments are empty or unreadable)
 */
export function keyArgument(args: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return oneLine(args);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return oneLine(String(args));
  const record = parsed as Record<string, unknown>;
  for (const k of KEY_ARGUMENTS) {
    const v = record[k];
    if (typeof v === 'string' && v.trim()) return oneLine(v);
  }
  return Object.entries(record)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    .map(([k, v]) => `${k}=${oneLine(String(v))}`)
    .join(', ');
}

/** The `--format F` and `--tools FILE` flags that `plan`, `count` and `fold` share. */
import { formatNamed, MESSAGE_FORMATS } from '../core/messages/format-name';
import type { MessageFormat } from '../core/messages/types';
import { CliUsageError, readJsonFile } from './io';

/** Flag names to pass to `parseFlags`. */
export const FORMAT_TOOLS_FLAGS = ['format', 'tools'] as const;

/**
 * @returns the format `--format` names (`s0` reads as `typed`), or undefined when absent (the transcript's own
 *   evidence decides; a transcript with none is read as chat, one mixing formats is refused).
 * @throws CliUsageError for a name that is no format.
 */
export function formatFlag(flags: ReadonlyMap<string, string>): MessageFormat | undefined {
  const given = flags.get('format');
  const format = formatNamed(given);
  if (given !== undefined && !format) {
    throw new CliUsageError(`--format must be one of ${MESSAGE_FORMATS.join(', ')}, got '${given}'`);
  }
  return format;
}

/**
 * @returns the tool definitions `--tools FILE` holds (a JSON array, sent with every request, so counted in every
 *   budget decision), or [] when absent.
 * @throws CliUsageError when FILE cannot be read or is not a JSON array.
 */
export function toolsFlag(flags: ReadonlyMap<string, string>): unknown[] {
  const file = flags.get('tools');
  if (file === undefined) return [];
  const tools = readJsonFile(file);
  if (!Array.isArray(tools)) throw new CliUsageError(`--tools ${file}: expected a JSON array of tool definitions`);
  return tools;
}

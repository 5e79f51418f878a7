import { readFileSync } from 'node:fs';

/** Where a command writes: one line per call. Tests pass a capturing implementation. */
export interface CliIO {
  stdout(line: string): void;
  stderr(line: string): void;
}

/** Bad command-line input: the CLI prints the message on one line and exits with code 2. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/**
 * Parses `--flag value` pairs and positional arguments.
 * @throws CliUsageError on an unknown flag or a flag without a value.
 */
export function parseFlags(
  args: string[],
  known: readonly string[]
): { flags: Map<string, string>; positional: string[] } {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (!known.includes(name))
      throw new CliUsageError(`unknown option --${name} (known: ${known.map((k) => '--' + k).join(', ')})`);
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '') throw new CliUsageError(`option --${name} needs a value`);
    flags.set(name, value);
  }
  return { flags, positional };
}

/**
 * Reads FILE (or `-` for stdin) as a JSON array.
 * @throws CliUsageError when the file is missing, is not JSON, or is not an array.
 */
export function readJsonArray(file: string | undefined): unknown[] {
  if (file === undefined) throw new CliUsageError('missing FILE (a JSON array of messages, or - for stdin)');
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new CliUsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliUsageError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(value))
    throw new CliUsageError(`${file} must hold a JSON array of messages, found ${typeof value}`);
  return value;
}

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
 * Parses `--flag value` pairs, value-less `--switch`es (set to `'true'` in `flags`) and positional arguments.
 * @throws CliUsageError on an unknown flag, a flag without a value, or a switch given a value.
 */
export function parseFlags(
  args: string[],
  known: readonly string[],
  switches: readonly string[] = []
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
    if (switches.includes(name)) {
      if (eq !== -1) throw new CliUsageError(`option --${name} takes no value`);
      flags.set(name, 'true');
      continue;
    }
    if (!known.includes(name))
      throw new CliUsageError(
        `unknown option --${name} (known: ${[...known, ...switches].map((k) => '--' + k).join(', ')})`
      );
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '') throw new CliUsageError(`option --${name} needs a value`);
    flags.set(name, value);
  }
  return { flags, positional };
}

/**
 * Reads FILE (or `-` for stdin) as JSON.
 * @throws CliUsageError when the file is missing, cannot be read or is not JSON.
 */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new CliUsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CliUsageError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * Reads FILE (or `-` for stdin) as a JSON array.
 * @throws CliUsageError when the file is missing, is not JSON, or is not an array.
 */
export function readJsonArray(file: string | undefined): unknown[] {
  if (file === undefined) throw new CliUsageError('missing FILE (a JSON array of messages, or - for stdin)');
  const value = readJsonFile(file);
  if (!Array.isArray(value))
    throw new CliUsageError(`${file} must hold a JSON array of messages, found ${typeof value}`);
  return value;
}

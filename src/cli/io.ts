import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { deepMessageProblem } from '../workflows/conversation/validate-append';

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

/** Largest input file a command reads, bytes (a string cannot be much longer; a conversation is far smaller). */
export const MAX_INPUT_FILE_BYTES = 256 * 1024 * 1024;

/** Waits `ms` without returning to the event loop (reading stdin is synchronous, as `readFileSync` is). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Reads an open file to its end, at most `MAX_INPUT_FILE_BYTES`.
 * @throws CliUsageError when there is more.
 */
function readBounded(fd: number, name: string): string {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (err) {
      // A non-blocking stdin with nothing to read yet.
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
        pause(10);
        continue;
      }
      throw err;
    }
    if (n === 0) return Buffer.concat(chunks, size).toString('utf8');
    size += n;
    if (size > MAX_INPUT_FILE_BYTES) throw new CliUsageError(`${name} is over the 256 MiB limit of an input file`);
    chunks.push(chunk.subarray(0, n));
  }
}

/**
 * Reads FILE, or stdin for `-`: a regular file only, so a FIFO nobody writes to or a device cannot hang the command
 * (pipe them to stdin instead); at most `MAX_INPUT_FILE_BYTES`.
 * @throws CliUsageError when the file is missing, not a regular file, too large or unreadable.
 */
function readInputText(file: string): string {
  const cannot = (err: unknown): CliUsageError =>
    new CliUsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  if (file === '-') {
    try {
      return readBounded(0, 'stdin');
    } catch (err) {
      throw err instanceof CliUsageError ? err : cannot(err);
    }
  }
  let stat;
  try {
    // stat, not open: opening a FIFO waits for a writer.
    stat = statSync(file);
  } catch (err) {
    throw cannot(err);
  }
  if (!stat.isFile()) throw new CliUsageError(`${file} is not a regular file (pipe it to stdin with -)`);
  if (stat.size > MAX_INPUT_FILE_BYTES)
    throw new CliUsageError(`${file} is ${stat.size} bytes, over the 256 MiB limit of an input file`);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw cannot(err);
  }
  try {
    return readBounded(fd, file);
  } catch (err) {
    throw err instanceof CliUsageError ? err : cannot(err);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads FILE (or `-` for stdin) as JSON.
 * @throws CliUsageError when the file is missing, not a regular file, over `MAX_INPUT_FILE_BYTES`, or not JSON.
 */
export function readJsonFile(file: string): unknown {
  const text = readInputText(file);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CliUsageError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * Reads FILE (or `-` for stdin) as a JSON array of messages, none nested deeper than the workflow accepts.
 * @throws CliUsageError when the file cannot be read (see `readJsonFile`), is not JSON, is not an array, or holds a
 *   message nested over 64 levels (which the workflow refuses too, and counting it would exhaust the stack).
 */
export function readJsonArray(file: string | undefined): unknown[] {
  if (file === undefined) throw new CliUsageError('missing FILE (a JSON array of messages, or - for stdin)');
  const value = readJsonFile(file);
  if (!Array.isArray(value))
    throw new CliUsageError(
      `${file} must hold a JSON array of messages, found ${value === null ? 'null' : typeof value}`
    );
  const deep = deepMessageProblem(value);
  if (deep) throw new CliUsageError(`${file}: ${deep}`);
  return value;
}

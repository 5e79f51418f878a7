/** Helpers of the CLI tests: the installed command, captured output, input files in a temporary folder. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { CliIO } from '../../src/cli/io';

/** The command as installed (bin/durable-compaction). */
export const bin = resolve(__dirname, '..', '..', 'bin', 'durable-compaction');

/** Runs a command; resolves with its output, rejects when it exits non-zero. */
export const run = promisify(execFile);

/** @returns a CliIO that keeps what a command prints, line by line. */
export function capture(): CliIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (s) => out.push(s), stderr: (s) => err.push(s) };
}

/** @returns a function that writes a file into a fresh temporary folder (named after `prefix`) and returns its path. */
export function fileWriter(prefix: string): (name: string, content: string) => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return (name, content) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
}

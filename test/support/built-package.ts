/** The compiled package in dist/ (what `npm run build` makes and the npm package ships), for tests of the build. */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './processes';

/** The compiled CLI, the package's `bin`. */
export const distCli = resolve(repoRoot, 'dist', 'cli', 'main.js');

/**
 * Builds dist/ when it is missing or older than a source (scripts/build.sh --if-stale, as scripts/setup.sh does).
 * @throws when the build fails (the message holds its output).
 */
export async function ensureBuilt(): Promise<void> {
  await promisify(execFile)('bash', [resolve(repoRoot, 'scripts', 'build.sh'), '--if-stale'], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
}

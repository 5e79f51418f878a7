import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { bin } from '../support/cli';

describe('CLI output on a pipe', function () {
  this.timeout(60_000);

  it('export of a large conversation writes every byte to a pipe, as many as to a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dc-pipe-'));
    const archive = SqliteArchive.open({ path: join(dir, 'archive.sqlite') });
    // 3 000 messages of ~300 bytes: about 1 MB of output, many times the 64 KiB a pipe buffers.
    const messages = Array.from({ length: 3000 }, (_, i) => ({
      role: 'user',
      content: `message ${i} ${'x'.repeat(280)}`,
    }));
    try {
      await archive.append(conversationWorkflowId('piped'), 0, messages);
    } finally {
      await archive.close();
    }
    const env = { ...process.env, ARCHIVE_DRIVER: 'sqlite' };
    const args = ['export', '--conversation', 'piped', '--archive-only', '--data', dir];
    const file = join(dir, 'export.json');
    const quoted = [bin, ...args].map((a) => `'${a}'`).join(' ');
    execFileSync('bash', ['-c', `${quoted} > '${file}'`], { env });
    const toFile = statSync(file).size;
    assert.ok(toFile > 900_000, `the export is ${toFile} bytes`);
    // A slow reader (sleep before reading) makes the pipe fill up while the command is still writing.
    const piped = execFileSync('bash', ['-c', `set -o pipefail; ${quoted} | (sleep 1; wc -c)`], { env }).toString();
    assert.equal(Number(piped.trim()), toFile);
    const lines = execFileSync('bash', ['-c', `set -o pipefail; ${quoted} --lines | (sleep 1; wc -l)`], {
      env,
    }).toString();
    assert.equal(Number(lines.trim()), 3000);
  });
});

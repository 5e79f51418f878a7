import { strict as assert } from 'node:assert';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isListening } from '../../src/server/port';
import { ConversationClient } from '../../src/client/conversation-client';
import { assertNoTaskFailures } from '../support/task-failures';
import { startNpmWorker, type StartedWorker } from '../support/npm-worker';

const root = resolve(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => ok(port));
    });
  });
}

/** `temporal server start-dev` processes serving this port (the `temporal` binary itself, not its watchdog). */
function serversOn(port: number): number {
  let pids: string[];
  try {
    pids = execFileSync('pgrep', ['-f', `start-dev .*--port ${port} `])
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean);
  } catch {
    return 0;
  }
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'temporal';
    } catch {
      return false;
    }
  }).length;
}

/** Runs `npm start`'s worker with its own ports and data folder (no TEMPORAL_ADDRESS: it starts a dev server). */
function startWorker(env: Record<string, string>): Promise<StartedWorker> {
  return startNpmWorker({ TEMPORAL_ADDRESS: '', ...env });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((ok) => (child.exitCode !== null ? ok(child.exitCode) : child.once('exit', (code) => ok(code))));
}

async function eventually(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the main job: embedded dev server + worker (npm start)', function () {
  this.timeout(180_000);

  it('starts the dev server with the UI, shares it with a second launch, and leaves no orphan after kill -9', async () => {
    const port = await freePort();
    const uiPort = await freePort();
    const env = {
      DEV_SERVER_PORT: String(port),
      DEV_SERVER_UI_PORT: String(uiPort),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'dc-data-')),
    };
    const first = await startWorker(env);
    try {
      assert.match(first.output(), new RegExp(`Temporal Web UI: http://127\\.0\\.0\\.1:${uiPort}`));
      const ui = await fetch(`http://127.0.0.1:${uiPort}/`);
      assert.equal(ui.status, 200, 'the Web UI answers');
      assert.equal(serversOn(port), 1);
      // A second launch at the same time reuses the running server instead of starting another.
      const second = await startWorker(env);
      assert.equal(serversOn(port), 1, 'still one server on the port');
      // kill -9 the launch that owns the server: its watchdog stops the server, no orphan is left.
      first.child.kill('SIGKILL');
      await exited(first.child);
      await eventually(
        'the dev server to stop',
        async () => serversOn(port) === 0 && !(await isListening('127.0.0.1', port))
      );
      second.child.kill('SIGTERM');
      await exited(second.child);
    } finally {
      first.child.kill('SIGKILL');
    }
  });

  it('stops the server it started on SIGTERM, and keeps state in the SQLite file across restarts', async () => {
    const port = await freePort();
    const uiPort = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'dc-data-'));
    const env = { DEV_SERVER_PORT: String(port), DEV_SERVER_UI_PORT: String(uiPort), DATA_DIR: dataDir };
    const run = await startWorker(env);
    const { Connection, Client } = await import('@temporalio/client');
    const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
    const client = new Client({ connection });
    // A conversation mid-session: messages appended before the server stops.
    const conversationId = `persist-${port}`;
    const before = new ConversationClient({ client, conversationId, taskQueue: 'durable-compaction' });
    await before.prepare([{ role: 'user', content: 'before the restart' }]);
    await before.record({ role: 'assistant', content: 'noted' });
    const handle = client.workflow.getHandle(before.workflowId);
    await connection.close();
    run.child.kill('SIGTERM');
    assert.equal(await exited(run.child), 0, 'a clean exit on SIGTERM');
    await eventually('the dev server to stop', () => serversOn(port) === 0);
    const again = await startWorker(env);
    try {
      const c2 = await Connection.connect({ address: `127.0.0.1:${port}` });
      const client2 = new Client({ connection: c2 });
      const described = await client2.workflow.getHandle(handle.workflowId).describe();
      assert.equal(described.status.name, 'RUNNING', 'the workflow survived the restart');
      // The session resumes: a new client (a restarted agent) continues the same conversation.
      const after = new ConversationClient({ client: client2, conversationId, taskQueue: 'durable-compaction' });
      const resumed = await after.prepare([{ role: 'user', content: 'after the restart' }]);
      assert.deepEqual(resumed.messages, [
        { role: 'user', content: 'before the restart' },
        { role: 'assistant', content: 'noted' },
        { role: 'user', content: 'after the restart' },
      ]);
      // This test's own server: the suite-wide check (no WorkflowTaskFailed event) runs here too.
      assert.ok((await assertNoTaskFailures(client2)) >= 1);
      await c2.close();
    } finally {
      again.child.kill('SIGTERM');
      await exited(again.child);
    }
    await eventually('the dev server to stop', () => serversOn(port) === 0);
  });

  it('fails with a clear message when the port holds something that is not Temporal', async () => {
    const srv = createServer((s) => s.end());
    await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', () => ok()));
    const port = (srv.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/worker.ts'], {
        cwd: root,
        env: {
          ...process.env,
          TEMPORAL_ADDRESS: '',
          DEV_SERVER_PORT: String(port),
          DATA_DIR: mkdtempSync(join(tmpdir(), 'dc-data-')),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      assert.equal(await exited(child), 1);
      assert.match(out, new RegExp(`127\\.0\\.0\\.1:${port} is in use but does not answer as a Temporal server`));
    } finally {
      srv.close();
    }
  });
});

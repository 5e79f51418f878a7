import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationClient } from '../../src/client/conversation-client';
import { main } from '../../src/cli/main';
import { devHelp, workerHelp } from '../../src/cli/worker';
import { distCli, ensureBuilt } from '../support/built-package';
import { capture } from '../support/cli';
import { uniqueConversationId } from '../support/conversation';
import { spawnNode, unusedPort, waitFor, type Spawned } from '../support/processes';
import { sharedTestEnv, temporalCliPath } from '../support/temporal';

/** A folder with an empty temporal.yaml: every key at its default, overridden by the environment given. */
function emptyConfig(): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dc-cli-worker-'));
  const config = join(dir, 'temporal.yaml');
  writeFileSync(config, '');
  return { dir, config };
}

/** Runs the compiled CLI in `cwd` with only PATH, HOME and `env` in its environment. */
function cli(args: string[], env: Record<string, string>, cwd: string): Spawned {
  return spawnNode([distCli, ...args], env, cwd, false);
}

const polling = (p: Spawned) => () => p.stdout().includes('polling task queue');

describe('durable-compaction worker and dev (the compiled CLI)', function () {
  this.timeout(300_000);

  before(async function () {
    this.timeout(300_000);
    await ensureBuilt();
  });

  it('--help lists both; each has its own --help', async () => {
    const io = capture();
    assert.equal(await main(['--help'], io), 0);
    assert.match(io.out.join('\n'), /^ {2}worker {3}\[--config FILE\]/m);
    assert.match(io.out.join('\n'), /^ {2}dev {6}\[--config FILE\]/m);
    for (const [name, help] of [
      ['worker', workerHelp],
      ['dev', devHelp],
    ] as const) {
      const one = capture();
      assert.equal(await main([name, '--help'], one), 0);
      assert.deepEqual(one.out, [help]);
    }
    const bad = capture();
    assert.equal(await main(['worker', '--port', '1'], bad), 2);
    assert.match(bad.err.join('\n'), /unknown option --port \(known: --config\)/);
  });

  it('worker refuses to start without temporal.address, naming the setting (exit 1)', async () => {
    const { dir, config } = emptyConfig();
    const p = cli(['worker', '--config', config], { TEMPORAL_ADDRESS: '', DATA_DIR: join(dir, 'data') }, dir);
    assert.equal(await p.exit, 1);
    assert.match(
      p.stderr(),
      /^configuration error: temporal\.address is empty: set it \(or TEMPORAL_ADDRESS\).*'durable-compaction dev'/m
    );
    assert.doesNotMatch(p.stdout(), /polling/);
  });

  it('worker polls the configured cluster from the prebuilt bundle, serves a conversation, exits 0 on SIGTERM', async () => {
    const env = await sharedTestEnv();
    const { dir, config } = emptyConfig();
    const taskQueue = `cli-worker-${process.pid}-${Date.now()}`;
    const p = cli(
      ['worker', '--config', config],
      { TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: taskQueue, DATA_DIR: join(dir, 'data') },
      dir
    );
    try {
      await waitFor(p, polling(p), 'the worker polls');
      assert.match(p.stdout(), new RegExp(`polling task queue '${taskQueue}' on ${env.address.replace('.', '\\.')}`));
      const conv = new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('cli-worker'),
        taskQueue,
      });
      const prepared = await conv.prepare([{ role: 'user', content: 'hello from the compiled worker' }]);
      assert.deepEqual(prepared.messages, [{ role: 'user', content: 'hello from the compiled worker' }]);
      await conv.close();
      // A worker started from src/ logs webpack's "Workflow bundle created"; this one bundled nothing.
      assert.doesNotMatch(p.stdout() + p.stderr(), /Workflow bundle created|webpack/i);
    } finally {
      p.child.kill('SIGTERM');
    }
    assert.equal(await p.exit, 0, p.stderr());
  });

  it('dev starts a local dev server with the Web UI and the worker; Ctrl-C stops both (exit 0)', async () => {
    const { dir, config } = emptyConfig();
    const uiPort = await unusedPort();
    const p = cli(
      ['dev', '--config', config],
      {
        TEMPORAL_ADDRESS: '',
        DEV_SERVER_PORT: String(await unusedPort()),
        DEV_SERVER_UI_PORT: String(uiPort),
        DATA_DIR: join(dir, 'data'),
        TEMPORAL_CLI_PATH: temporalCliPath(),
      },
      dir
    );
    try {
      await waitFor(p, polling(p), 'the dev worker polls');
      assert.match(p.stdout(), new RegExp(`Temporal Web UI: http://127\\.0\\.0\\.1:${uiPort}`));
      assert.equal((await fetch(`http://127.0.0.1:${uiPort}/`)).status, 200, 'the Web UI answers');
    } finally {
      p.child.kill('SIGINT');
    }
    assert.equal(await p.exit, 0, p.stderr());
  });
});

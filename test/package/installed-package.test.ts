/**
 * The package as a user gets it: `npm pack`, `npm install <tarball>` into an empty project outside this checkout (so
 * nothing can reach its src/ or its node_modules), the worker started through the package's `bin`, and the README's
 * agent loop run through the installed client, in plain JavaScript and in TypeScript type-checked against the shipped
 * declarations, with the local OpenAI-compatible server as the model.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ConversationClient } from '../../src/client/conversation-client';
import { ensureBuilt } from '../support/built-package';
import { uniqueConversationId } from '../support/conversation';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server';
import { repoRoot, spawnCommand, waitFor, type Spawned } from '../support/processes';
import { assertLoopRan, LOOP_FIRST, loopReply, readmeLoopModule } from '../support/readme-loop';
import { sharedTestEnv } from '../support/temporal';

const exec = promisify(execFile);
const big = { maxBuffer: 64 * 1024 * 1024 };

/** The README's loop in plain JavaScript, as a user without TypeScript writes it (same `run(ctx)` as the TS one). */
const javascriptLoop = (address: string, taskQueue: string, conversationId: string) => `'use strict';
const { Client, Connection } = require('@temporalio/client');
const { default: OpenAI } = require('openai');
const { ConversationClient } = require('durable-compaction');

exports.run = async function run(ctx) {
  const openai = new OpenAI({ baseURL: ctx.baseURL, apiKey: 'sk-readme' });
  const client = new Client({ connection: await Connection.connect({ address: ${JSON.stringify(address)} }) });
  const conv = new ConversationClient({
    client,
    conversationId: ${JSON.stringify(conversationId)},
    taskQueue: ${JSON.stringify(taskQueue)},
    settings: { model: 'gpt-4o', budget: 128000 },
  });
  let usage, output;
  let newMessages = ctx.first;
  for (;;) {
    const { messages } = await conv.prepare(newMessages, { usage, output });
    const reply = await openai.chat.completions.create({ model: 'gpt-4o', messages });
    usage = { inputTokens: reply.usage.prompt_tokens };
    output = reply.choices[0].message;
    newMessages = await ctx.runTools(reply);
  }
};
`;

/** Drives a loop module (`./<file>`) for four model calls, then exits 0; anything else exits 1. */
const runner = (file: string) => `'use strict';
class LoopDone extends Error {}
let steps = 0;
require('./${file}')
  .run({
    baseURL: process.env.MODEL_URL,
    first: ${JSON.stringify(LOOP_FIRST)},
    runTools: async () => {
      if (++steps === 4) throw new LoopDone();
      return [{ role: 'user', content: 'step ' + steps + ': the log says nothing' }];
    },
  })
  .then(
    () => process.exit(1),
    (err) => {
      if (err instanceof LoopDone) process.exit(0);
      console.error(err);
      process.exit(1);
    }
  );
`;

/**
 * Fails to compile if the shipped declarations were missing or `any` (with skipLibCheck, a declaration that does not
 * resolve becomes `any` silently): each `@ts-expect-error` must meet a real type error.
 */
const typesAreReal = `
export function typesAreReal(conv: ConversationClient): void {
  // @ts-expect-error prepare takes an array of messages
  void conv.prepare('not an array');
  // @ts-expect-error the result has no such field
  void conv.prepare([]).then((p) => p.nothing);
}
`;

/** The TypeScript user's configuration: strict, and package resolution through the `exports` map. */
const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'node16',
    moduleResolution: 'node16',
    strict: true,
    // As Temporal's own samples: @temporalio/common's declarations import 'ms', which has none under node16.
    skipLibCheck: true,
    esModuleInterop: true,
    types: ['node'],
    outDir: 'out',
  },
  include: ['agent.ts'],
};

describe('the npm package, installed into an empty project', function () {
  this.timeout(1_200_000);
  let project: string;
  let tarball: string;
  let worker: Spawned | undefined;
  let openai: OpenAITestServer;
  const taskQueue = `installed-${process.pid}-${Date.now()}`;

  before(async function () {
    // Packing builds (prepack), and installing compiles better-sqlite3 from source: minutes on a loaded machine.
    this.timeout(1_200_000);
    await ensureBuilt();
    const packDir = mkdtempSync(join(tmpdir(), 'dc-pack-'));
    await exec('npm', ['pack', '--pack-destination', packDir, '--silent'], { cwd: repoRoot, ...big });
    tarball = join(
      packDir,
      readdirSync(packDir).find((f) => f.endsWith('.tgz'))!
    );
    project = mkdtempSync(join(tmpdir(), 'dc-adopter-'));
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'adopter', version: '0.0.0', private: true, allowScripts: { 'better-sqlite3': true } })
    );
    await exec(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
        tarball,
        // What the README's loop imports beside the package, and the TypeScript user's compiler.
        '@temporalio/client@1.24.0',
        'openai@6.49.0',
        'typescript@6.0.3',
        '@types/node@20.19.43',
      ],
      { cwd: project, ...big }
    );
    openai = await startOpenAIServer({ fallback: loopReply, lifetimeMs: 1_200_000 });
  });

  after(async () => {
    worker?.child.kill('SIGTERM');
    if (worker) await worker.exit;
    await openai?.close();
  });

  it('ships compiled JavaScript, declarations, the bundles and the schema; no TypeScript sources; no tsx', async () => {
    const { stdout } = await exec('tar', ['tzf', tarball], big);
    const files = stdout.trim().split('\n');
    for (const needed of [
      'package/dist/cli/main.js',
      'package/dist/client/public.d.ts',
      'package/dist/workflow-bundle.js',
      'package/dist/workflow-bundle-encrypted.js',
      'package/schema/protocol.schema.json',
      'package/CHANGELOG.md',
    ])
      assert.ok(files.includes(needed), `the tarball has ${needed}`);
    assert.deepEqual(
      files.filter((f) => f.startsWith('package/src/') || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
      []
    );
    assert.equal(existsSync(join(project, 'node_modules', 'tsx')), false, 'tsx is not installed with the package');
    // Internals are not reachable: only the exports map's entries resolve.
    await assert.rejects(
      exec(process.execPath, ['-e', "require('durable-compaction/dist/workflows/conversation')"], { cwd: project }),
      /ERR_PACKAGE_PATH_NOT_EXPORTED/
    );
  });

  it("starts the worker through the package's bin against a dev server", async () => {
    const env = await sharedTestEnv();
    worker = spawnCommand(
      join(project, 'node_modules', '.bin', 'durable-compaction'),
      ['worker'],
      { TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: taskQueue, DATA_DIR: join(project, 'data') },
      project,
      false
    );
    await waitFor(worker, () => worker!.stdout().includes('polling task queue'), 'the installed worker polls');
    assert.match(worker.stdout(), new RegExp(`polling task queue '${taskQueue}'`));
  });

  for (const language of ['JavaScript', 'TypeScript'] as const) {
    it(`runs the README's agent loop through the installed client in ${language}`, async () => {
      assert.ok(worker, 'the worker started');
      const env = await sharedTestEnv();
      const conversationId = uniqueConversationId(`installed-${language}`);
      let entry = 'agent.js';
      if (language === 'JavaScript') {
        writeFileSync(join(project, entry), javascriptLoop(env.address, taskQueue, conversationId));
      } else {
        // The README's block as written (it imports 'durable-compaction'), type-checked against the shipped .d.ts.
        writeFileSync(
          join(project, 'agent.ts'),
          readmeLoopModule({ address: env.address, taskQueue, conversationId }) + typesAreReal
        );
        writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
        await exec(join(project, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: project }).catch(
          (err: Error & { stdout?: string }) =>
            assert.fail(`tsc failed on the README's loop:\n${err.stdout ?? err.message}`)
        );
        entry = 'out/agent.js';
      }
      const before = openai.requests.length;
      writeFileSync(join(project, 'run.js'), runner(entry));
      await exec(process.execPath, ['run.js'], { cwd: project, env: { ...process.env, MODEL_URL: openai.baseURL } });
      const requests = openai.requests.slice(before);
      await assertLoopRan(
        { ...openai, requests },
        new ConversationClient({ client: env.client, conversationId, taskQueue })
      );
    });
  }
});

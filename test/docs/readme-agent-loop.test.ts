// The README's TypeScript agent loop, run exactly as written (only the server address points at the test server):
// the usage it reports after each model call calibrates the conversation's estimate.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runInThisContext } from 'node:vm';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import OpenAI from 'openai';
import ts from 'typescript';
import { createActivities } from '../../src/activities';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { ConversationClient } from '../../src/client/conversation-client';
import { startOpenAIServer } from '../support/openai-server';
import { withWorker } from '../support/temporal';

/** The first ```ts block after the "Using it from an agent (TypeScript)" heading. */
function readmeLoop(): string {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Using it from an agent (TypeScript)'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  assert.ok(match, 'the README has the TypeScript agent loop');
  return match[1]!;
}

const IMPORTS = [
  "import { Client, Connection } from '@temporalio/client';",
  "import { ConversationClient } from './src/client/conversation-client';",
];

/** Stops the endless loop after the scripted turns. */
class EndOfScript extends Error {}

describe('README: the TypeScript agent loop', function () {
  this.timeout(120_000);

  it('runs as written and calibrates the estimate with every reported usage', async () => {
    const code = readmeLoop();
    for (const line of IMPORTS) assert.ok(code.includes(line), `the loop imports exactly: ${line}`);
    const body = code
      .split('\n')
      .filter((line) => !IMPORTS.includes(line))
      .join('\n');
    const server = await startOpenAIServer();
    const turns = 4;
    const openaiCalls: unknown[][] = [];
    const archive = SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-readme-')), 'archive.sqlite') });
    try {
      await withWorker(
        { activities: createActivities({ archive }), taskQueue: 'durable-compaction' },
        async ({ env }) => {
          const js = ts
            .transpileModule(
              `export async function run(Client, Connection, ConversationClient, openai, runTools, newMessages) {\n${body}\n}`,
              { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }
            )
            .outputText.replace("'127.0.0.1:7233'", JSON.stringify(env.address));
          const mod: { exports: { run?: (...args: unknown[]) => Promise<void> } } = { exports: {} };
          // The README's code runs as a module of its own (vm, not eval: same realm, so errors are instances we know).
          (runInThisContext(`(function (exports, module) {\n${js}\n})`) as (e: unknown, m: unknown) => void)(
            mod.exports,
            mod
          );
          const real = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL });
          const openai = {
            chat: {
              completions: {
                create: async (req: { messages: unknown[] }) => {
                  openaiCalls.push(req.messages);
                  // The provider reports a token per 3 characters of JSON: more than we count (other framing).
                  const reported = Math.round(JSON.stringify(req.messages).length / 3);
                  server.script({
                    kind: 'text',
                    text: `answer ${openaiCalls.length}`,
                    usage: { input: reported, output: 5 },
                  });
                  return real.chat.completions.create(req as never);
                },
              },
            },
          };
          let turn = 0;
          const runTools = (): Promise<unknown[]> => {
            if (++turn === turns) return Promise.reject(new EndOfScript());
            return Promise.resolve([{ role: 'user', content: `question ${turn + 1}` }]);
          };
          await assert.rejects(
            mod.exports.run!(Client, Connection, ConversationClient, openai, runTools, [
              { role: 'user', content: 'question 1' },
            ]),
            EndOfScript
          );
          const conv = new ConversationClient({ client: env.client, conversationId: 'ticket-4711', taskQueue: 'x' });
          const state = await conv.state();
          assert.equal(openaiCalls.length, turns);
          assert.ok(state.calibration, 'the reported usage was applied');
          assert.equal(state.calibration.samples, turns - 1, 'every report after the first model call counted');
          assert.ok(
            state.calibration.ratio > 1,
            `the ratio moved towards what the provider counts: ${state.calibration.ratio}`
          );
          await conv.close();
        }
      );
    } finally {
      await server.close();
      await archive.close();
    }
  });
});

/**
 * The README's agent loop, run as written: its TypeScript block is cut out of README.md and executed against a worker
 * and the local OpenAI-compatible server through the real `openai` client. Only the server address, task queue and
 * conversation id are swapped for the test's (each must appear in the block as quoted), and `runTools` ends the loop.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { startOpenAIServer } from '../support/openai-server';
import { repoRoot } from '../support/processes';

/** What the generated module exports. */
interface LoopModule {
  run(ctx: { baseURL: string; first: unknown[]; runTools: (reply: unknown) => Promise<unknown[]> }): Promise<void>;
}

class LoopDone extends Error {}

/** @returns the README's agent-loop block, split into its import lines and its body. */
function readmeLoop(): { imports: string[]; body: string } {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Using it from an agent (TypeScript)'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'the README has the agent loop');
  const lines = block[1]!.split('\n');
  return {
    imports: lines.filter((l) => l.startsWith('import ')),
    body: lines.filter((l) => !l.startsWith('import ')).join('\n'),
  };
}

/** Replaces `from` (which must occur) with `to`. */
function swap(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `the README's loop contains ${from}`);
  return text.split(from).join(to);
}

describe("the README's agent loop, as written", function () {
  this.timeout(120_000);

  it('runs against a worker: every output and tool result joins the conversation, the model gets its context, usage calibrates', async () => {
    const openai = await startOpenAIServer({
      fallback: () => ({ kind: 'text', text: 'I looked at it.', usage: { input: 300, output: 5 } }),
    });
    const file = join(repoRoot, 'test', 'docs', `.readme-loop-${process.pid}.ts`);
    try {
      await withConversationWorker(async ({ env, taskQueue, open }) => {
        const id = uniqueConversationId('readme-loop');
        const { imports, body } = readmeLoop();
        let code = swap(body, "'127.0.0.1:7233'", JSON.stringify(env.address));
        code = swap(code, "taskQueue: 'durable-compaction'", `taskQueue: ${JSON.stringify(taskQueue)}`);
        code = swap(code, "'ticket-4711'", JSON.stringify(id));
        writeFileSync(
          file,
          [
            "import OpenAI from 'openai';",
            ...imports.map((l) => l.replace("'./src/", "'../../src/")),
            'export async function run(ctx: any): Promise<void> {',
            "  const openai = new OpenAI({ baseURL: ctx.baseURL, apiKey: 'sk-readme' });",
            '  const runTools = ctx.runTools;',
            '  let newMessages = ctx.first;',
            code,
            '}',
          ].join('\n')
        );
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const loop = require(file) as LoopModule;
        let steps = 0;
        const results: unknown[] = [];
        await assert.rejects(
          loop.run({
            baseURL: openai.baseURL,
            first: [
              { role: 'system', content: 'You fix tickets.' },
              { role: 'user', content: 'Ticket 4711: the export is empty.' },
            ],
            runTools: () => {
              if (++steps === 4) throw new LoopDone();
              const next = { role: 'user', content: `step ${steps}: the log says nothing` };
              results.push(next);
              return Promise.resolve([next]);
            },
          }),
          LoopDone
        );
        // Four model calls; the fourth output was not sent yet (the loop stopped before its next prepare).
        assert.equal(openai.requests.length, 4);
        const context = (await open(id).context()).messages as { role: string; content: string }[];
        assert.deepEqual(
          context.map((m) => m.role),
          ['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']
        );
        assert.deepEqual(context.slice(-1), results.slice(-1));
        // What the model got at the last step is the conversation's context at that step.
        const sent = openai.requests[3]!.body!.messages as unknown[];
        assert.deepEqual(sent, context);
        // The usage each model call reported (300 input tokens) calibrated the estimate of the next context.
        const { calibration } = await open(id).state();
        assert.ok(calibration, 'the reported usage was applied');
        assert.equal(calibration.samples, 3, 'every report after the first model call counted');
      });
    } finally {
      rmSync(file, { force: true });
      await openai.close();
    }
  });
});

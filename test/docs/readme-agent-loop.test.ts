/**
 * The README's agent loop, run as written: its TypeScript block is cut out of README.md and executed against a worker
 * and the local OpenAI-compatible server through the real `openai` client. Only the server address, task queue and
 * conversation id are swapped for the test's (each must appear in the block as quoted), and `runTools` ends the loop.
 */
import { strict as assert } from 'node:assert';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { startOpenAIServer } from '../support/openai-server';
import { repoRoot } from '../support/processes';
import { assertLoopRan, LOOP_FIRST, loopReply, loopToolResult, readmeLoopModule } from '../support/readme-loop';

/** What the generated module exports. */
interface LoopModule {
  run(ctx: { baseURL: string; first: unknown[]; runTools: (reply: unknown) => Promise<unknown[]> }): Promise<void>;
}

class LoopDone extends Error {}

describe("the README's agent loop, as written", function () {
  this.timeout(120_000);

  it('runs against a worker: every output and tool result joins the conversation, the model gets its context, usage calibrates', async () => {
    const openai = await startOpenAIServer({ fallback: loopReply });
    const file = join(repoRoot, 'test', 'docs', `.readme-loop-${process.pid}.ts`);
    try {
      await withConversationWorker(async ({ env, taskQueue, open }) => {
        const id = uniqueConversationId('readme-loop');
        writeFileSync(
          file,
          // The README imports the package by name; here it is this checkout's sources.
          readmeLoopModule({ address: env.address, taskQueue, conversationId: id }, (l) =>
            l.replace("from 'durable-compaction'", "from '../../src/client/public'")
          )
        );
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const loop = require(file) as LoopModule;
        let steps = 0;
        await assert.rejects(
          loop.run({
            baseURL: openai.baseURL,
            first: LOOP_FIRST,
            runTools: () => {
              if (++steps === 4) throw new LoopDone();
              return Promise.resolve([loopToolResult(steps)]);
            },
          }),
          LoopDone
        );
        // Four model calls; the fourth output was not sent yet (the loop stopped before its next prepare).
        await assertLoopRan(openai, open(id));
      });
    } finally {
      rmSync(file, { force: true });
      await openai.close();
    }
  });
});

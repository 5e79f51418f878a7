// Tool definitions count in every budget decision: from settings, from configure, and from prepare's tools field.
import { strict as assert } from 'node:assert';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { createTokenCounter } from '../../src/tokens';
import { toolsProblem } from '../../src/contract/tool-schemas';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const user = (text: string) => ({ role: 'user', content: text });
const assistant = (text: string) => ({ role: 'assistant', content: text });

/** `n` function tools with a few described properties each (about 60 tokens a tool). */
const tools = (n: number) =>
  Array.from({ length: n }, (_, k) => ({
    type: 'function',
    function: {
      name: `tool_${k}`,
      description: `Does thing number ${k} to the repository and reports what changed in detail.`,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'The file path, relative to the repository root.' },
          mode: { type: 'string', enum: ['fast', 'thorough', 'dry-run'], description: 'How hard to try.' },
        },
      },
    },
  }));

async function failure(p: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof WorkflowUpdateFailedError, String(err));
    assert.ok(err.cause instanceof ApplicationFailure, String(err.cause));
    return err.cause;
  }
  assert.fail('expected the update to fail');
}

describe('tool definitions in the conversation workflow', function () {
  this.timeout(120_000);
  const counter = createTokenCounter({ model: 'gpt-4o' });

  it('counts prepare’s tools in the estimate and folds because of them', async () => {
    await withConversationWorker(async ({ open }) => {
      const schemas = tools(12);
      const toolTokens = counter.countTools(schemas);
      assert.ok(toolTokens > 500, `${toolTokens}`);
      const history = Array.from({ length: 8 }, (_, k) => [
        user(`question ${k} ${'word '.repeat(60)}`),
        assistant(`answer ${k}`),
      ]).flat();
      const without = open(uniqueConversationId('no-tools'), { budget: 1200 });
      const a = await without.prepare(history);
      assert.equal(a.fold, undefined, `under the trigger without tools: ${a.tokens} (${a.decision})`);
      const withTools = open(uniqueConversationId('tools'), { budget: 1200 });
      const b = await withTools.prepare(history, { tools: schemas });
      assert.ok(b.fold?.ok, `the tools push the same context over the trigger: ${b.decision}`);
      assert.equal(b.fold.tokensBefore, a.tokens + toolTokens, 'the estimate before the fold includes the tools');
      assert.deepEqual((await withTools.state()).settings.tools, schemas, 'prepare’s tools replace settings.tools');
    });
  });

  it('counts tools given in the start settings and replaced by configure', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('tools-settings'), { tools: tools(3) });
      const plain = open(uniqueConversationId('tools-none'));
      const a = await conv.prepare([user('hello')]);
      const b = await plain.prepare([user('hello')]);
      assert.equal(a.tokens, b.tokens + counter.countTools(tools(3)));
      await conv.configure({ tools: tools(5) });
      assert.equal((await conv.state()).tokens, b.tokens + counter.countTools(tools(5)));
      await conv.configure({ tools: [] });
      assert.equal((await conv.state()).tokens, b.tokens);
    });
  });

  it('rejects malformed tools with a clear error, stores nothing, and keeps answering', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('tools-bad'));
      await conv.prepare([user('hello')]);
      const bad = await failure(conv.prepare([user('more')], { tools: [{ type: 'function', function: {} }] }));
      assert.equal(bad.type, 'InvalidAppend');
      assert.match(bad.message, /tools\[0\]\.function\.name must be a non-empty string/);
      const notArray = await failure(conv.configure({ tools: 'all of them' as unknown as unknown[] }));
      assert.equal(notArray.type, 'InvalidSettings');
      assert.match(notArray.message, /tools must be an array/);
      const state = await conv.state();
      assert.equal(state.messages, 1, 'nothing was stored');
      assert.deepEqual(state.settings.tools, []);
      assert.equal((await conv.prepare([user('still here')])).messages.length, 2);
    });
  });

  it('bounds the definitions by count and bytes', () => {
    assert.match(toolsProblem(tools(129), 'tools')!, /129 tools, more than 128/);
    const huge = [{ type: 'function', function: { name: 'x', description: 'y'.repeat(140_000) } }];
    assert.match(toolsProblem(huge, 'tools')!, /over the 131072-byte limit/);
    assert.match(toolsProblem([null], 'tools')!, /tools\[0\] must be an object, got null/);
    assert.equal(toolsProblem(tools(2), 'tools'), undefined);
    assert.equal(toolsProblem([{ type: 'web_search' }, { type: 'function', name: 'f' }], 'tools'), undefined);
  });
});

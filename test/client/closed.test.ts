import { strict as assert } from 'node:assert';
import { WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ConversationClosedError, ConversationUpdateError } from '../../src/client/errors';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

describe('a closed conversation, through ConversationClient', function () {
  this.timeout(120_000);

  it('prepare and record raise ConversationClosedError (they raised WorkflowExecutionAlreadyStartedError); nothing is stored', async () => {
    await withConversationWorker(async ({ env, open, archive }) => {
      const id = uniqueConversationId('closed');
      const conv = open(id);
      await conv.prepare([{ role: 'user', content: 'hello' }]);
      await conv.close();
      await env.client.workflow.getHandle(conv.workflowId).result();
      for (const [what, call] of [
        ['prepare', () => conv.prepare([{ role: 'user', content: 'are you there?' }])],
        ['record', () => conv.record({ role: 'assistant', content: 'late' })],
        ['prepare from another client', () => open(id).prepare([{ role: 'user', content: 'hi again' }])],
      ] as const) {
        await assert.rejects(
          call(),
          (e: unknown) => {
            assert.ok(e instanceof ConversationClosedError, `${what}: ${String(e)}`);
            assert.ok(e instanceof ConversationUpdateError && e instanceof WorkflowUpdateFailedError, what);
            assert.equal(e.type, 'ConversationClosed');
            assert.equal(e.stored, false);
            assert.match(e.message, new RegExp(`^ConversationClosed: conversation '${id}' is closed`));
            assert.ok(e.cause instanceof WorkflowExecutionAlreadyStartedError, 'the server answer is its cause');
            return true;
          },
          what
        );
      }
      const stored = await archive.readAll(conv.workflowId);
      assert.deepEqual(
        stored.map((s) => s.message),
        [{ role: 'user', content: 'hello' }]
      );
    });
  });

  it("the workflow's ConversationClosed refusal (while it finishes) is a ConversationClosedError too", () => {
    const refusal = ApplicationFailure.create({ type: 'ConversationClosed', message: 'the conversation is closed' });
    const typed = ConversationUpdateError.from(new WorkflowUpdateFailedError('update failed', refusal));
    assert.ok(typed instanceof ConversationClosedError);
    assert.equal(typed.type, 'ConversationClosed');
    assert.equal(typed.stored, false);
    assert.equal(typed.message, 'ConversationClosed: the conversation is closed');
  });
});

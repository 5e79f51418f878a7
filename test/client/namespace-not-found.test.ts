// While Temporal's database restarts, its frontend can answer an update it already applied with "Namespace not
// found" (the SDK's NamespaceNotFoundError; seen on the chaos cluster, npm run test:cluster). A client that stored an
// append before knows its namespace exists: it retries with the same update id and writer sequence, so the append is
// stored once and the next call is numbered after it. So does a new conversation's client whose Temporal client reached
// the namespace before. A client whose Temporal client never reached its namespace fails at once.
import { strict as assert } from 'node:assert';
import * as grpc from '@grpc/grpc-js';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { NamespaceNotFoundError } from '@temporalio/common';
import { google, temporal } from '@temporalio/proto';
import { ConversationClient } from '../../src/client/conversation-client';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const user = (text: string) => ({ role: 'user', content: text });

/** The status a frontend sends for a namespace it cannot find, with the details the SDK decodes. */
function namespaceNotFound(namespace: string): Partial<grpc.StatusObject> {
  const failure = temporal.api.errordetails.v1.NamespaceNotFoundFailure.encode({ namespace }).finish();
  const details = google.rpc.Status.encode({
    code: grpc.status.NOT_FOUND,
    message: `Namespace not found: '${namespace}'`,
    details: [
      { type_url: 'type.googleapis.com/temporal.api.errordetails.v1.NamespaceNotFoundFailure', value: failure },
    ],
  }).finish();
  const metadata = new grpc.Metadata();
  metadata.set('grpc-status-details-bin', Buffer.from(details));
  return { code: grpc.status.NOT_FOUND, details: `Namespace not found: '${namespace}'`, metadata };
}

/**
 * Lets the next `state.left` calls of `method` reach the server (which applies them) and replaces each answer with
 * "Namespace not found".
 */
function answersAfterApplying(namespace: string, method = 'UpdateWorkflowExecution') {
  const state = { left: 0, replaced: 0 };
  const interceptor: grpc.Interceptor = (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        if (!options.method_definition.path.endsWith(`/${method}`) || state.left === 0) {
          next(metadata, listener);
          return;
        }
        state.left--;
        next(metadata, {
          onReceiveMetadata: (m, n) => n(m),
          // The answer passes (grpc-js holds the status until a message is passed on); the status replaces it.
          onReceiveMessage: (m, n) => n(m),
          onReceiveStatus: (status, n) => {
            state.replaced++;
            n({ ...status, ...namespaceNotFound(namespace) });
          },
        });
      },
    });
  return { interceptor, state };
}

/** Runs `fn` with a Temporal client whose `method` answers can be replaced (see {@link answersAfterApplying}). */
async function withFaultyClient(
  env: { address: string; namespace?: string },
  method: string,
  fn: (client: Client, fault: ReturnType<typeof answersAfterApplying>) => Promise<void>
): Promise<void> {
  const namespace = env.namespace ?? 'default';
  const fault = answersAfterApplying(namespace, method);
  const connection = await Connection.connect({
    address: env.address,
    interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), fault.interceptor],
  });
  try {
    await fn(new Client({ connection, namespace }), fault);
  } finally {
    await connection.close();
  }
}

describe('a NamespaceNotFoundError answer', function () {
  this.timeout(120_000);

  it('to an append applied by a namespace that answered before: retried, stored once, next call numbered after', async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      await withFaultyClient(env, 'UpdateWorkflowExecution', async (client, fault) => {
        const conv = new ConversationClient({
          client,
          conversationId: uniqueConversationId('namespace-answer'),
          taskQueue,
          retryDeadlineMs: 30_000,
        });
        await conv.prepare([user('one')]);
        fault.state.left = 2; // the applied append and its first retry are both answered "not found"
        await conv.prepare([user('two')]);
        assert.equal(fault.state.replaced, 2, 'both answers were replaced');
        await conv.prepare([user('three')]);
        const { messages } = await conv.context();
        const texts = messages.map((m) => (m as { content?: unknown }).content);
        assert.deepEqual(texts, ['one', 'two', 'three'], 'each message is stored once, in order');
      });
    });
  });

  it('to the first call of a new conversation on a Temporal client that reached the namespace: retried, stored once', async () => {
    // The chaos suite's lanes share one Temporal client: a new conversation's first update-with-start during a database
    // restart got the answer, and its client, having stored nothing yet, handed it to the caller as final.
    await withConversationWorker(async ({ env, taskQueue }) => {
      await withFaultyClient(env, 'ExecuteMultiOperation', async (client, fault) => {
        const open = (name: string) =>
          new ConversationClient({
            client,
            conversationId: uniqueConversationId(name),
            taskQueue,
            retryDeadlineMs: 30_000,
          });
        await open('namespace-first').prepare([user('one')]);
        fault.state.left = 1; // the applied start is answered "not found"; the retry goes to the running conversation
        const second = open('namespace-second');
        await second.prepare([user('two')]);
        assert.equal(fault.state.replaced, 1, 'the answer was replaced');
        const { messages } = await second.context();
        assert.deepEqual(
          messages.map((m) => (m as { content?: unknown }).content),
          ['two'],
          'stored once'
        );
      });
    });
  });

  it('to a client that never reached its namespace: thrown at once, not retried to the deadline', async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const connection = await Connection.connect({ address: env.address });
      try {
        const client = new Client({ connection, namespace: 'no-such-namespace' });
        const conv = new ConversationClient({
          client,
          conversationId: uniqueConversationId('namespace-missing'),
          taskQueue,
          retryDeadlineMs: 60_000,
        });
        const started = Date.now();
        await assert.rejects(conv.prepare([user('one')]), NamespaceNotFoundError);
        assert.ok(Date.now() - started < 30_000, 'refused before the retry deadline');
      } finally {
        await connection.close();
      }
    });
  });
});

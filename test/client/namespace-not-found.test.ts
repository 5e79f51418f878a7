// While Temporal's database restarts, its frontend can answer an update it already applied with "Namespace not
// found" (the SDK's NamespaceNotFoundError; seen on the chaos cluster, npm run test:cluster). A client that stored an
// append before knows its namespace exists: it retries with the same update id and writer sequence, so the append is
// stored once and the next call is numbered after it. A client that never reached its namespace fails at once.
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
 * Lets the next `count` UpdateWorkflowExecution calls reach the server (which applies them) and replaces each answer
 * with "Namespace not found".
 */
function answersAfterApplying(namespace: string) {
  const state = { left: 0, replaced: 0 };
  const interceptor: grpc.Interceptor = (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        if (!options.method_definition.path.endsWith('/UpdateWorkflowExecution') || state.left === 0) {
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

describe('a NamespaceNotFoundError answer', function () {
  this.timeout(120_000);

  it('to an append applied by a namespace that answered before: retried, stored once, next call numbered after', async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const namespace = env.namespace ?? 'default';
      const fault = answersAfterApplying(namespace);
      const connection = await Connection.connect({
        address: env.address,
        interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), fault.interceptor],
      });
      try {
        const client = new Client({ connection, namespace });
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
      } finally {
        await connection.close();
      }
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

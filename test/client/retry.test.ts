import { strict as assert } from 'node:assert';
import { ServiceError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { ApplicationFailure, NamespaceNotFoundError } from '@temporalio/common';
import { isTransientServerAnswer, retryTransient } from '../../src/client/retry';

const grpc = (code: number, message: string) => Object.assign(new Error(message), { code });

describe('client retries of transient server answers', () => {
  it('tells transient answers from final ones', () => {
    assert.equal(
      isTransientServerAnswer(new ServiceError('x', { cause: grpc(14, 'UNAVAILABLE: connection refused') })),
      true
    );
    assert.equal(isTransientServerAnswer(new ServiceError('x', { cause: grpc(4, 'DEADLINE_EXCEEDED') })), true);
    assert.equal(isTransientServerAnswer(new Error('Workflow Task in failed state.')), true);
    assert.equal(
      isTransientServerAnswer(new ServiceError('Failed to query Workflow', { cause: grpc(2, 'query timed out') })),
      true
    );
    assert.equal(isTransientServerAnswer(new WorkflowUpdateRPCTimeoutOrCancelledError('timeout')), true);
    const outOfOrder = ApplicationFailure.create({ type: 'OutOfOrder', message: 'later', nonRetryable: true });
    assert.equal(isTransientServerAnswer(new WorkflowUpdateFailedError('failed', outOfOrder)), true);
    const invalid = ApplicationFailure.create({ type: 'InvalidAppend', message: 'unavailable', nonRetryable: true });
    assert.equal(
      isTransientServerAnswer(new WorkflowUpdateFailedError('failed', invalid)),
      false,
      'a rejection is final'
    );
    assert.equal(isTransientServerAnswer(new ServiceError('x', { cause: grpc(3, 'INVALID_ARGUMENT') })), false);
  });

  it("rides out the history service's passing 'Namespace … is not found.' while Temporal's database restarts", () => {
    // Update-with-start: the SDK rethrows the operation's own status (NOT_FOUND, this message) when the history
    // service's namespace cache misses while its database is down (the chaos suite on a real cluster, npm run
    // test:cluster). A namespace that does not exist is refused by the frontend instead, as NamespaceNotFoundError.
    assert.equal(isTransientServerAnswer(grpc(5, 'Namespace default is not found.')), true);
    assert.equal(
      isTransientServerAnswer(new NamespaceNotFoundError('nope')),
      false,
      'a namespace that does not exist is final'
    );
  });

  it('rides out an update the server aborted because its workflow task was lost (history service killed)', () => {
    const aborted = 'Unable to perform workflow execution update due to unexpected workflow task failure.';
    assert.equal(isTransientServerAnswer(grpc(2, aborted)), true);
  });

  it('retries with back-off until it succeeds or the deadline passes', async () => {
    let calls = 0;
    const value = await retryTransient(
      () => (++calls < 3 ? Promise.reject(grpc(14, 'unavailable')) : Promise.resolve('ok')),
      { deadlineMs: 5000, initialDelayMs: 1 }
    );
    assert.deepEqual([value, calls], ['ok', 3]);
    const start = Date.now();
    await assert.rejects(
      retryTransient(() => Promise.reject(grpc(14, 'unavailable')), { deadlineMs: 200, initialDelayMs: 10 }),
      /unavailable/
    );
    assert.ok(Date.now() - start < 2000);
    let final = 0;
    await assert.rejects(
      retryTransient(() => Promise.reject(new Error(`bad ${++final}`)), { deadlineMs: 5000 }),
      /bad 1/
    );
  });
});

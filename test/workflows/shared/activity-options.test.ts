import { strict as assert } from 'node:assert';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { archiveCall } from '../../../src/activities/archive-key';
import { createCountTokensActivity, type CountTokensInput } from '../../../src/activities/count-tokens';
import { ArchiveInputError } from '../../../src/archive/archive';
import { defaultFoldLimits } from '../../../src/contract/fold-limits';
import {
  archiveActivityOptions,
  localActivityOptions,
  NON_RETRYABLE_ACTIVITY_FAILURES,
  summarizeActivityOptions,
} from '../../../src/workflows/shared/activity-options';

/** @returns the failure type `run` throws (it must throw an ApplicationFailure). */
async function failureType(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
  } catch (err) {
    assert.ok(err instanceof ApplicationFailure, `expected an ApplicationFailure, got ${String(err)}`);
    return err.type ?? undefined;
  }
  assert.fail('expected a failure');
}

describe('activity options: one retry policy vocabulary for every activity', () => {
  it('local, archive and summarize activities name the same non-retryable failure types', () => {
    assert.deepEqual(localActivityOptions.retry?.nonRetryableErrorTypes, [...NON_RETRYABLE_ACTIVITY_FAILURES]);
    assert.deepEqual(archiveActivityOptions.retry?.nonRetryableErrorTypes, [...NON_RETRYABLE_ACTIVITY_FAILURES]);
    assert.deepEqual(summarizeActivityOptions(defaultFoldLimits).retry?.nonRetryableErrorTypes, [
      ...NON_RETRYABLE_ACTIVITY_FAILURES,
    ]);
  });

  it('the list holds the types the activities really throw for input that cannot succeed', async () => {
    const env = new MockActivityEnvironment();
    const countTokens = createCountTokensActivity();
    const badCount = await failureType(() =>
      env.run(countTokens, { model: 'gpt-4o', format: 'chat', messages: 'none' } as unknown as CountTokensInput)
    );
    const badArchive = await failureType(() =>
      archiveCall(() => Promise.reject(new ArchiveInputError('message 0 has no seq')))
    );
    for (const type of [badCount, badArchive]) {
      assert.ok(NON_RETRYABLE_ACTIVITY_FAILURES.includes(type!), `${type} is retried`);
    }
  });

  it('summarize options follow the limits', () => {
    const o = summarizeActivityOptions({ ...defaultFoldLimits, summarizeMaxAttempts: 2, summarizeRetryInitialMs: 500 });
    assert.equal(o.retry?.maximumAttempts, 2);
    assert.equal(o.retry?.initialInterval, 500);
    assert.equal(o.startToCloseTimeout, defaultFoldLimits.summarizeStartToCloseMs);
  });
});

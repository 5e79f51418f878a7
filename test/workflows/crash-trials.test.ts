import { strict as assert } from 'node:assert';
import { runCrashTrials } from '../support/crash-trials';

describe('crash trials (CI size: 20 SIGKILLs of the worker)', function () {
  this.timeout(900_000);

  it('loses nothing, doubles nothing, fails no task and hands no error to a caller', async () => {
    const result = await runCrashTrials({ kills: 20, concurrent: 3, seed: 7 });
    console.log(`      ${result.line}`);
    assert.equal(result.kills, 20);
    assert.deepEqual(result.clientErrorSamples, [], 'no error reached a caller');
    assert.deepEqual(result.mismatches, []);
    assert.equal(result.lost, 0);
    assert.equal(result.duplicated, 0);
    assert.equal(result.doubleFolds, 0);
    assert.equal(result.taskFailures, 0);
    assert.ok(result.messages > 0 && result.conversations >= 3);
  });
});

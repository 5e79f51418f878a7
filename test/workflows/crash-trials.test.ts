import { strict as assert } from 'node:assert';
import { checkArchive, runCrashTrials } from '../support/crash-trials';

describe('crash trials (CI size: 20 SIGKILLs of the worker)', function () {
  this.timeout(900_000);

  it('books the archive against what each call said: stored, not stored, or unknown', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((content) => ({ role: 'user', content }));
    const ok = (message: unknown) => ({ message, stored: true as const });
    const unsure = (message: unknown) => ({ message, stored: 'unknown' as const });
    const no = (message: unknown) => ({ message, stored: false as const });
    assert.deepEqual(checkArchive([a, b, c], [ok(a), unsure(b), ok(c), no(d)]), {
      stored: 3,
      lost: 0,
      duplicated: 0,
      uncertain: 1,
      uncertainStored: 1,
      problems: [],
    });
    assert.deepEqual(checkArchive([a, c], [ok(a), unsure(b), ok(c)]).uncertainStored, 0);
    const lostOne = checkArchive([a], [ok(a), ok(b)]);
    assert.equal(lostOne.lost, 1);
    const doubled = checkArchive([a, b, b], [ok(a), ok(b)]);
    assert.equal(doubled.duplicated, 1);
    assert.deepEqual(checkArchive([a, b], [ok(a), unsure(b), ok(b)]), {
      stored: 2,
      lost: 0,
      duplicated: 0,
      uncertain: 1,
      uncertainStored: 0,
      problems: [],
    });
    assert.equal(checkArchive([a, b, b], [ok(a), unsure(b), ok(b)]).uncertainStored, 1);
    assert.equal(checkArchive([a], [ok(a), unsure(b), ok(b)]).lost, 1);
    assert.match(checkArchive([a, d], [ok(a), no(d)]).problems.join(), /said "not stored"/);
  });

  it('loses nothing, doubles nothing, fails no task and hands no error to a caller', async () => {
    const result = await runCrashTrials({ kills: 20, concurrent: 3, seed: 7 });
    console.log(`      ${result.line}`);
    assert.equal(result.kills, 20);
    assert.deepEqual(result.clientErrorSamples, [], 'no error reached a caller');
    assert.equal(result.failedCalls, 0);
    assert.deepEqual(result.mismatches, []);
    assert.equal(result.lost, 0);
    assert.equal(result.duplicated, 0);
    assert.equal(result.doubleFolds, 0);
    assert.equal(result.taskFailures, 0);
    assert.ok(result.messages > 0 && result.conversations >= 3);
  });
});

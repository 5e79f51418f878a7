// The chaos suite (`npm run test:cluster`, which starts the cluster with scripts/cluster.sh and stops it afterwards):
// CHAOS_FAULTS faults (default 64, eight of each kind) while corpus conversations run on three worker hosts.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runChaos } from '../support/cluster/chaos';
import { faultDeck, faultKinds } from '../support/cluster/faults';
import { mulberry32 } from '../support/rng';

describe('a real Temporal cluster: workers on three hosts, every part killed, nothing lost', function () {
  this.timeout(3_600_000);

  it('deals every kind of fault in each round of eight', () => {
    const deck = faultDeck(20, mulberry32(3));
    assert.equal(deck.length, 20);
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(new Set(deck.slice(round * 8, round * 8 + 8)), new Set(faultKinds));
    }
  });

  it('loses nothing, doubles nothing, fails no task; callers see typed errors only while a dependency is down', async () => {
    const faults = Number(process.env.CHAOS_FAULTS ?? 64);
    const result = await runChaos({
      faults,
      seed: Number(process.env.CHAOS_SEED ?? 1),
      log: (line) => process.stderr.write(`      ${line}\n`),
    });
    console.log(`      ${result.line}`);
    if (process.env.CHAOS_RESULT) writeFileSync(join(process.env.CHAOS_RESULT), `${JSON.stringify(result, null, 2)}\n`);
    assert.equal(result.faults, faults);
    for (const kind of faultKinds) assert.ok(result.faultsByKind[kind] >= Math.floor(faults / 8), `${kind} injected`);
    assert.deepEqual(result.mismatches, []);
    assert.equal(result.lost, 0, 'messages lost');
    assert.equal(result.duplicated, 0, 'messages stored twice');
    assert.equal(result.doubleFolds, 0, 'folds applied twice');
    assert.equal(result.taskFailures, 0, 'WorkflowTaskFailed events');
    assert.deepEqual(result.untypedErrors, [], 'every error a caller saw is typed and documented');
    assert.deepEqual(result.errorsWhilePathUp, [], 'no error while a path stayed up');
    assert.deepEqual(result.slowWhilePathUp, [], 'no call over 30 s while a path stayed up');
    assert.deepEqual(result.pastDeadline, [], "no call past the client's deadline");
    assert.ok(result.messages > 0 && result.conversations >= 4);
  });
});

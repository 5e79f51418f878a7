// A step's fold decisions and records read the time its ingest recorded (kept in history), not workflow time, which a
// replay can be told differently for the same point of the history (see decision-clock.ts).
import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActivities } from '../../../src/activities';
import type { IngestInput } from '../../../src/activities/types';
import { SqliteArchive } from '../../../src/archive/sqlite-archive';
import { DecisionClock } from '../../../src/workflows/conversation/decision-clock';
import { foldAndReplay } from '../../support/fold-replay';

/** Activities whose ingest reports times years from now, a second apart (no workflow clock gives these). */
function futureIngest(archive: SqliteArchive) {
  const base = Date.UTC(2031, 0, 1);
  const recorded: number[] = [];
  const real = createActivities({ archive });
  const activities = {
    ...real,
    async ingest(input: IngestInput) {
      const result = await real.ingest(input);
      const at = base + recorded.length * 1000;
      recorded.push(at);
      return { ...result, at };
    },
  };
  return { real, activities, recorded };
}

describe('the decision clock', function () {
  this.timeout(300_000);

  it('reads the held time until released, else workflow time; ignores a missing or bad time', () => {
    const clock = new DecisionClock();
    const before = Date.now();
    assert.ok(clock.now() >= before);
    clock.hold(1234);
    assert.equal(clock.now(), 1234);
    clock.release();
    assert.ok(clock.now() >= before);
    clock.hold(undefined);
    assert.ok(clock.now() >= before, 'a history from before ingest returned a time');
    clock.hold(Number.NaN);
    assert.ok(clock.now() >= before);
  });

  it('stamps the start of each fold with its step ingest time, and a replay holds the same', async () => {
    const archive = SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-clock-')), 'a.sqlite') });
    const { real, activities, recorded } = futureIngest(archive);
    try {
      const { held, replayed } = await foldAndReplay('decision-clock', activities, real);
      assert.ok(held.length >= 2, `the corpus session folded (${held.length} folds)`);
      const steps = new Set(recorded);
      for (const f of held) assert.ok(steps.has(f.startedAt), `fold ${f.number} begun at a step's ingest time`);
      assert.deepEqual(replayed, held, 'a replay reads the same times');
    } finally {
      await archive.close();
    }
  });

  it('ends a blocking fold at the time of the task its summary came in, not the step time', async () => {
    const archive = SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-clock-')), 'a.sqlite') });
    const { real, activities, recorded } = futureIngest(archive);
    try {
      const { held, replayed } = await foldAndReplay('decision-clock-blocking', activities, real, {
        foldMode: 'blocking',
      });
      assert.ok(held.length >= 2, `the corpus session folded (${held.length} folds)`);
      for (const f of held) {
        assert.ok(recorded.includes(f.startedAt), `fold ${f.number} begun at its step's ingest time`);
        assert.ok(!recorded.includes(f.finishedAt), `fold ${f.number} ended at a task's time`);
      }
      assert.deepEqual(replayed, held);
    } finally {
      await archive.close();
    }
  });
});

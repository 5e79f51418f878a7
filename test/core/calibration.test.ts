import { strict as assert } from 'node:assert';
import {
  applyCalibration,
  dropAnchor,
  MAX_RATIO,
  MAX_STEP,
  MIN_RATIO,
  recordUsage,
  type Calibration,
} from '../../src/core/calibration';

describe('calibration', () => {
  it('is the identity without reports', () => {
    assert.equal(applyCalibration(null, 1234), 1234);
  });

  it('trusts a plausible report for the same context and adds our exact delta for growth', () => {
    // Reported 1050 for a context we counted at 1000: within the 20% band, so anchored exactly.
    const cal = recordUsage(null, { estimated: 1000, reported: 1050 });
    assert.equal(applyCalibration(cal, 1000), 1050);
    // 200 exact tokens appended since: reported total + delta × ratio.
    assert.equal(applyCalibration(cal, 1200), Math.ceil(1050 + 200 * cal.ratio));
    assert.ok(cal.ratio > 1 && cal.ratio < 1.05);
  });

  it('converges to a consistent ratio over a few reports', () => {
    let cal: Calibration | null = null;
    for (let i = 0; i < 30; i++)
      cal = recordUsage(cal, { estimated: 10_000 + i * 500, reported: Math.round((10_000 + i * 500) * 1.3) });
    assert.ok(cal && Math.abs(cal.ratio - 1.3) < 0.01, `ratio ${cal?.ratio}`);
    assert.equal(cal.samples, 30);
    // After a fold the anchor is dropped and the ratio applies to the whole (smaller) context.
    assert.equal(applyCalibration(dropAnchor(cal), 4000), Math.ceil(4000 * cal.ratio));
  });

  it('bounds one wild report: the estimate moves by at most 1 + MAX_STEP', () => {
    const before = recordUsage(null, { estimated: 1000, reported: 1000 });
    for (const wild of [1, 10, 1e6, 1e9]) {
      const after = recordUsage(before, { estimated: 1000, reported: wild });
      for (const counted of [500, 1000, 5000]) {
        const was = applyCalibration(before, counted);
        const now = applyCalibration(after, counted);
        const factor = Math.max(now / was, was / now);
        assert.ok(factor <= 1 + MAX_STEP + 0.002, `report ${wild}, context ${counted}: moved ×${factor.toFixed(3)}`);
      }
      assert.ok(
        after.ratio <= before.ratio * (1 + MAX_STEP) + 1e-12 && after.ratio >= before.ratio / (1 + MAX_STEP) - 1e-12
      );
    }
  });

  it('keeps the ratio within [MIN_RATIO, MAX_RATIO] under any sequence of reports', () => {
    let up: Calibration | null = null;
    let down: Calibration | null = null;
    for (let i = 0; i < 50; i++) {
      up = recordUsage(up, { estimated: 100, reported: 1e6 });
      down = recordUsage(down, { estimated: 100, reported: 1 });
    }
    assert.ok(up && up.ratio <= MAX_RATIO && up.ratio > MAX_RATIO * 0.99, `up ${up?.ratio}`);
    assert.ok(down && down.ratio >= MIN_RATIO && down.ratio < MIN_RATIO * 1.01, `down ${down?.ratio}`);
  });

  it('ignores reports that say nothing (zero, negative, non-finite)', () => {
    const cal = recordUsage(null, { estimated: 1000, reported: 1100 });
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.deepEqual(recordUsage(cal, { estimated: 1000, reported: bad }), cal);
      assert.deepEqual(recordUsage(cal, { estimated: bad, reported: 1000 }), cal);
    }
  });

  it('is plain JSON data', () => {
    const cal = recordUsage(recordUsage(null, { estimated: 10, reported: 12 }), { estimated: 20, reported: 23 });
    assert.deepEqual(JSON.parse(JSON.stringify(cal)), cal);
  });
});

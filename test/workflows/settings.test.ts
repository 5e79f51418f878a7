import { strict as assert } from 'node:assert';
import {
  defaultLimits,
  defaultSettings,
  MAX_BUDGET,
  mergeLimits,
  mergeSettings,
  SettingsError,
} from '../../src/workflows/settings';

describe('conversation settings', () => {
  it('merges a valid patch without touching the base', () => {
    const merged = mergeSettings(defaultSettings, {
      budget: 32_000,
      summarizer: { mode: 'chat' },
      plan: { keepTurns: 3 },
    });
    assert.equal(merged.budget, 32_000);
    assert.equal(merged.summarizer.mode, 'chat');
    assert.equal(merged.summarizer.model, defaultSettings.summarizer.model);
    assert.deepEqual(merged.plan, { keepTurns: 3 });
    assert.equal(defaultSettings.budget, 128_000);
  });

  const bad: [string, unknown, RegExp][] = [
    ['an unknown key', { budgett: 1 }, /unknown setting 'budgett'/],
    [
      'a budget over the payload-safe maximum',
      { budget: MAX_BUDGET + 1 },
      /budget must be an integer from 256 to 300000/,
    ],
    ['a fractional budget', { budget: 1000.5 }, /budget must be an integer/],
    ['a trigger ratio above 1', { triggerRatio: 1.2 }, /triggerRatio must be a number in \(0, 1\]/],
    ['an unknown policy', { policy: 'newest' }, /policy must be one of/],
    ['an unknown summarizer key', { summarizer: { apiKey: 'sk-1' } }, /unknown setting 'summarizer.apiKey'/],
    ['an empty model', { model: ' ' }, /model must not be empty/],
    ['a plan option out of range', { plan: { tailRatio: 0 } }, /tailRatio/],
    ['budget inside plan', { plan: { budget: 10 } }, /plan\.budget/],
  ];
  for (const [what, patch, message] of bad) {
    it(`rejects ${what}`, () => {
      assert.throws(
        () => mergeSettings(defaultSettings, patch),
        (e: unknown) => e instanceof SettingsError && message.test(e.message)
      );
    });
  }

  it('keeps run limits below the server cap of 2 000 updates', () => {
    assert.equal(mergeLimits(defaultLimits, { maxUpdatesPerRun: 12 }).maxUpdatesPerRun, 12);
    assert.throws(() => mergeLimits(defaultLimits, { maxUpdatesPerRun: 1950 }), /at most 1900/);
    assert.throws(() => mergeLimits(defaultLimits, { maxUpdates: 3 }), /unknown limit/);
  });
});

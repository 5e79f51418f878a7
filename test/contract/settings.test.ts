import { strict as assert } from 'node:assert';
import {
  defaultLimits,
  defaultSettings,
  MAX_BUDGET,
  mergeLimits,
  mergeSettings,
  SettingsError,
} from '../../src/contract/settings';

describe('conversation settings', () => {
  it('merges a valid patch without touching the base', () => {
    const merged = mergeSettings(defaultSettings, {
      budget: 32_000,
      summarizer: { profile: 'openai-mini' },
      plan: { keepTurns: 3 },
    });
    assert.equal(merged.budget, 32_000);
    assert.equal(merged.summarizer.profile, 'openai-mini');
    assert.equal(merged.summarizer.maxOutputTokens, defaultSettings.summarizer.maxOutputTokens);
    assert.deepEqual(merged.plan, { keepTurns: 3 });
    assert.equal(defaultSettings.budget, 128_000);
  });

  const bad: [string, unknown, RegExp][] = [
    ['an unknown key', { budgett: 1 }, /unknown key 'settings.budgett' \(did you mean 'budget'\?\)/],
    ['a typo inside plan', { plan: { keepTurn: 3 } }, /unknown key 'plan.keepTurn' \(did you mean 'keepTurns'\?\)/],
    ['plan.pin.roles that is not a list', { plan: { pin: { roles: 5 } } }, /plan\.pin\.roles must be an array/],
    ['an unknown role in plan.pin', { plan: { pin: { roles: ['boss'] } } }, /plan\.pin\.roles\[0\] must be one of/],
    [
      'plan.filter.indices as an object',
      { plan: { filter: { indices: {} } } },
      /plan\.filter\.indices must be an array/,
    ],
    ['a negative index in plan.filter', { plan: { filter: { indices: [-1] } } }, /plan\.filter\.indices\[0\]/],
    [
      'a typo inside plan.pin',
      { plan: { pin: { tool: ['x'] } } },
      /unknown key 'plan.pin.tool' \(did you mean 'tools'\?\)/,
    ],
    ['a fractional plan count', { plan: { keepTurns: 2.5 } }, /plan\.keepTurns must be an integer/],
    ['an unknown roundsMode', { plan: { roundsMode: 'drop' } }, /plan\.roundsMode must be 'compress' or 'truncate'/],
    [
      'an unknown summaryReserve',
      { plan: { summaryReserve: 'grow' } },
      /plan\.summaryReserve must be 'fixed' or 'carried'/,
    ],
    ['a constructor key', JSON.parse('{"constructor": 1}'), /unknown key 'settings.constructor'/],
    ['a __proto__ key', JSON.parse('{"__proto__": {"budget": 5}}'), /unknown key 'settings.__proto__'/],
    ['a toString key in plan', { plan: { toString: 1 } }, /unknown key 'plan.toString'/],
    [
      'a budget over the payload-safe maximum',
      { budget: MAX_BUDGET + 1 },
      /budget must be an integer from 256 to 1000000/,
    ],
    ['a fractional budget', { budget: 1000.5 }, /budget must be an integer/],
    ['a trigger ratio above 1', { triggerRatio: 1.2 }, /triggerRatio must be a number in \(0, 1\]/],
    ['an unknown policy', { policy: 'newest' }, /policy must be one of/],
    ['an unknown summarizer key', { summarizer: { apiKey: 'sk-1' } }, /unknown key 'summarizer.apiKey'/],
    ['an empty model', { model: ' ' }, /model must not be empty/],
    ['a plan option out of range', { plan: { tailRatio: 0 } }, /tailRatio/],
    ['budget inside plan', { plan: { budget: 10 } }, /plan\.budget/],
    [
      'a trigger at the fold target',
      { triggerRatio: 0.5 },
      /triggerRatio \(0\.5\) must be above plan\.targetRatio \(0\.5\): a fold aims at the target/,
    ],
    [
      'a trigger below a raised fold target',
      { triggerRatio: 0.8, plan: { targetRatio: 0.85 } },
      /triggerRatio \(0\.8\) must be above plan\.targetRatio \(0\.85\)/,
    ],
    [
      'a kept tail as large as the trigger (tokens policy)',
      { policy: 'tokens', triggerRatio: 0.6, plan: { tailRatio: 0.6 } },
      /triggerRatio \(0\.6\) must be above plan\.tailRatio \(0\.6\)/,
    ],
    [
      'a summary reserve that fills the fold target',
      { budget: 8000, plan: { summaryReserveTokens: 4000 } },
      /plan\.summaryReserveTokens \(4000\) must be below targetRatio × budget \(4000 tokens\)/,
    ],
    [
      'a minimum fold at the trigger',
      { budget: 10_000, plan: { minFoldTokens: 9000 } },
      /plan\.minFoldTokens \(9000\) must be below triggerRatio × budget \(9000 tokens\)/,
    ],
  ];
  for (const [what, patch, message] of bad) {
    it(`rejects ${what}`, () => {
      assert.throws(
        () => mergeSettings(defaultSettings, patch),
        (e: unknown) => e instanceof SettingsError && message.test(e.message)
      );
    });
  }

  it('checks settings together only where they apply, and after a patch over existing settings', () => {
    // The fold target belongs to the auto policy; the tail ratio to the tokens policy.
    assert.equal(mergeSettings(defaultSettings, { policy: 'turns', triggerRatio: 0.3 }).triggerRatio, 0.3);
    assert.equal(mergeSettings(defaultSettings, { triggerRatio: 0.6, plan: { targetRatio: 0.4 } }).triggerRatio, 0.6);
    const turns = mergeSettings(defaultSettings, { policy: 'turns', triggerRatio: 0.3 });
    // Switching such a conversation to auto later is refused with the same reason.
    assert.throws(
      () => mergeSettings(turns, { policy: 'auto' }),
      /triggerRatio \(0\.3\) must be above plan\.targetRatio/
    );
  });

  it('keeps run limits below the server cap of 2 000 updates', () => {
    assert.equal(mergeLimits(defaultLimits, { maxUpdatesPerRun: 12 }).maxUpdatesPerRun, 12);
    assert.throws(() => mergeLimits(defaultLimits, { maxUpdatesPerRun: 1950 }), /from 10 to 1900, got 1950/);
    assert.throws(() => mergeLimits(defaultLimits, { maxUpdates: 3 }), /unknown key 'limits.maxUpdates'/);
  });

  it('gives every limit a floor and a ceiling, clamps them for continued runs, and refuses prototype keys', () => {
    assert.throws(
      () => mergeLimits(defaultLimits, { maxHistoryBytes: 1 }),
      /limits\.maxHistoryBytes must be an integer from 1048576/
    );
    assert.throws(
      () => mergeLimits(defaultLimits, { maxHistoryEvents: 10 ** 9 }),
      /maxHistoryEvents must be an integer from 500 to 40000/
    );
    assert.throws(() => mergeLimits(defaultLimits, { summarizeHeartbeatTimeoutMs: 0 }), /summarizeHeartbeatTimeoutMs/);
    assert.throws(
      () => mergeLimits(defaultLimits, { summarizeStartToCloseMs: 'long' }),
      /summarizeStartToCloseMs must be an integer/
    );
    assert.throws(
      () => mergeLimits(defaultLimits, JSON.parse('{"constructor": 5}')),
      /unknown key 'limits.constructor'/
    );
    assert.throws(() => mergeLimits(defaultLimits, [1]), /limits must be an object/);
  });
});

describe('fold settings and fold limits', () => {
  it('defaults to background folds from 0.7 of the budget, waiting at most 10 s at the hard limit', () => {
    assert.equal(defaultSettings.foldMode, 'background');
    assert.equal(defaultSettings.prefoldRatio, 0.7);
    assert.equal(defaultSettings.maxFoldWaitMs, 10_000);
    assert.equal(mergeSettings(defaultSettings, { foldMode: 'blocking' }).foldMode, 'blocking');
  });

  const badSettings: [unknown, RegExp][] = [
    [{ foldMode: 'eventually' }, /foldMode must be one of background, blocking/],
    [{ prefoldRatio: 0 }, /prefoldRatio must be a number in \(0, 1\]/],
    [{ maxFoldWaitMs: -1 }, /maxFoldWaitMs must be an integer from 0 to 600000/],
    [{ maxFoldWaitMs: 1.5 }, /maxFoldWaitMs/],
  ];
  for (const [patch, message] of badSettings) {
    it(`rejects ${JSON.stringify(patch)}`, () => {
      assert.throws(
        () => mergeSettings(defaultSettings, patch),
        (e: unknown) => e instanceof SettingsError && message.test(e.message)
      );
    });
  }

  it('chooses the heartbeat interval and timeout together, so a kill inside a fold costs seconds', () => {
    assert.equal(defaultLimits.summarizeHeartbeatTimeoutMs, 10_000);
    assert.equal(defaultLimits.summarizeHeartbeatIntervalMs, 2_000);
    assert.ok(defaultLimits.summarizeScheduleToCloseMs >= defaultLimits.summarizeStartToCloseMs);
    const ok = mergeLimits(defaultLimits, { summarizeHeartbeatTimeoutMs: 3000, summarizeHeartbeatIntervalMs: 1000 });
    assert.equal(ok.summarizeHeartbeatTimeoutMs, 3000);
  });

  const badLimits: [unknown, RegExp][] = [
    [{ summarizeHeartbeatTimeoutMs: 3000 }, /summarizeHeartbeatIntervalMs \(2000\) must be at most a third/],
    [{ summarizeHeartbeatTimeoutMs: 500, summarizeHeartbeatIntervalMs: 100 }, /at least 1000/],
    [
      { summarizeStartToCloseMs: 2_000_000 },
      /summarizeStartToCloseMs must not exceed limits.summarizeScheduleToCloseMs/,
    ],
    [{ summarizeRetryInitialMs: 120_000 }, /summarizeRetryInitialMs must not exceed/],
    [{ summarizeMaxAttempts: 0 }, /summarizeMaxAttempts must be an integer/],
    [{ foldBackoffInitialMs: 3_600_000 }, /foldBackoffInitialMs must not exceed/],
  ];
  for (const [patch, message] of badLimits) {
    it(`rejects limits ${JSON.stringify(patch)}`, () => {
      assert.throws(
        () => mergeLimits(defaultLimits, patch),
        (e: unknown) => e instanceof SettingsError && message.test(e.message)
      );
    });
  }
});

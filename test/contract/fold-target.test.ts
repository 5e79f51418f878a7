import { strict as assert } from 'node:assert';
import {
  mergeStartSettings,
  NEW_CONVERSATION_RESERVE,
  NEW_CONVERSATION_TARGET_RATIO,
  targetFitsUnder,
  withFoldTarget,
} from '../../src/contract/fold-target';
import { defaultSettings, mergeSettings, planOptions } from '../../src/contract/settings';
import { DEFAULT_TRIGGER_RATIO, resolveOptions } from '../../src/core/plan/options';

describe('new-conversation fold target', () => {
  const newPlan = { targetRatio: NEW_CONVERSATION_TARGET_RATIO, summaryReserve: NEW_CONVERSATION_RESERVE };

  it('puts the target and the carried reserve under the configured defaults, which still win', () => {
    assert.deepEqual(withFoldTarget(undefined), { plan: newPlan });
    assert.deepEqual(withFoldTarget({ budget: 32_000 }), { budget: 32_000, plan: newPlan });
    assert.deepEqual(withFoldTarget({ plan: { keepTurns: 3 } }), { plan: { keepTurns: 3 } });
  });

  it('is left out when the configured trigger is not above it, and merges with one that is', () => {
    assert.equal(withFoldTarget({ triggerRatio: NEW_CONVERSATION_TARGET_RATIO }).plan, undefined);
    const low = withFoldTarget({ triggerRatio: 0.3 });
    assert.deepEqual(low.plan, newPlan);
    assert.doesNotThrow(() => mergeSettings(defaultSettings, low));
  });

  it('fits a target only under a trigger above it, the default trigger being the one the plan resolves', () => {
    assert.equal(targetFitsUnder(0.25, 0.3), true);
    assert.equal(targetFitsUnder(0.25, 0.25), false);
    assert.equal(targetFitsUnder(0.25, Number.NaN), false);
    assert.equal(targetFitsUnder(DEFAULT_TRIGGER_RATIO - 0.01, undefined), true);
    assert.equal(targetFitsUnder(DEFAULT_TRIGGER_RATIO, undefined), false);
    assert.equal(resolveOptions({ budget: 1000 }).triggerRatio, DEFAULT_TRIGGER_RATIO);
    assert.equal(defaultSettings.triggerRatio, DEFAULT_TRIGGER_RATIO);
  });

  it('resolves to a plan that folds below half the budget', () => {
    const settings = mergeSettings(defaultSettings, withFoldTarget({ budget: 16_000 }));
    const o = resolveOptions(planOptions(settings));
    assert.equal(o.targetRatio, NEW_CONVERSATION_TARGET_RATIO);
    assert.ok(o.targetRatio < 0.5 && o.targetRatio < o.triggerRatio);
  });

  it('accepts start settings that fit only the new-conversation target, over it, and refuses what fits neither', () => {
    assert.throws(() => mergeSettings(defaultSettings, { triggerRatio: 0.4 }), /triggerRatio \(0\.4\)/);
    const low = mergeStartSettings({ triggerRatio: 0.4 });
    assert.equal(low.triggerRatio, 0.4);
    assert.equal(resolveOptions(planOptions(low)).targetRatio, NEW_CONVERSATION_TARGET_RATIO);
    // Settings that fit the core's defaults are merged over those, as before (no target added).
    assert.deepEqual(mergeStartSettings({ triggerRatio: 0.8 }), mergeSettings(defaultSettings, { triggerRatio: 0.8 }));
    // Refused over both targets: the message names the one the conversation would fold to, not the core's 0.5.
    assert.throws(
      () => mergeStartSettings({ triggerRatio: 0.2 }),
      /^SettingsError: triggerRatio \(0\.2\) must be above plan\.targetRatio \(0\.25\): a fold aims at the target/
    );
    assert.equal(NEW_CONVERSATION_TARGET_RATIO, 0.25);
    assert.throws(() => mergeStartSettings({ triggerRatio: 0.4, plan: { targetRatio: 0.5 } }), /triggerRatio/);
    assert.throws(() => mergeStartSettings({ budget: 'x' }), /budget/);
  });
});

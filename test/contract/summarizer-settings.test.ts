import { strict as assert } from 'node:assert';
import { defaultSettings, mergeSettings, SettingsError } from '../../src/contract/settings';
import { LEGACY_SUMMARIZER_FIELDS, MAX_INSTRUCTIONS } from '../../src/contract/summarizer-settings';
import * as productionWorkflows from '../../src/workflows';

describe('conversation summarizer settings (profiles)', () => {
  it('a conversation picks a profile by name and tunes the output limit and instructions', () => {
    const merged = mergeSettings(defaultSettings, {
      summarizer: { profile: 'openai-mini', maxOutputTokens: 1500, instructions: 'Keep ticket ids.' },
    });
    assert.deepEqual(merged.summarizer, {
      profile: 'openai-mini',
      maxOutputTokens: 1500,
      instructions: 'Keep ticket ids.',
    });
    assert.deepEqual(defaultSettings.summarizer, { profile: '', maxOutputTokens: 0, instructions: '' });
  });

  for (const field of LEGACY_SUMMARIZER_FIELDS) {
    it(`rejects summarizer.${field}, saying to choose a profile`, () => {
      assert.throws(
        () => mergeSettings(defaultSettings, { summarizer: { [field]: 'http://127.0.0.1:9/v1' } }),
        (e: unknown) =>
          e instanceof SettingsError &&
          e.message.startsWith(`summarizer.${field} is not a conversation setting`) &&
          e.message.includes('choose one with summarizer.profile')
      );
    });
  }

  const bad: [string, unknown, RegExp][] = [
    ['a URL as profile', { profile: 'http://169.254.169.254' }, /summarizer\.profile must be ''/],
    ['a path as profile', { profile: '../../etc/passwd' }, /summarizer\.profile must be ''/],
    ['a non-string profile', { profile: 7 }, /summarizer\.profile must be ''/],
    ['a negative output limit', { maxOutputTokens: -1 }, /summarizer\.maxOutputTokens must be an integer from 0/],
    ['too long instructions', { instructions: 'x'.repeat(MAX_INSTRUCTIONS + 1) }, /at most 4000 characters/],
    ['an unknown key', { apiKey: 'sk-1' }, /unknown key 'summarizer\.apiKey'/],
    ['a prototype key', JSON.parse('{"__proto__": {"x": 1}}') as unknown, /unknown key 'summarizer\.__proto__'/],
  ];
  for (const [what, summarizer, message] of bad) {
    it(`rejects ${what}`, () => {
      assert.throws(
        () => mergeSettings(defaultSettings, { summarizer }),
        (e: unknown) => e instanceof SettingsError && message.test(e.message)
      );
    });
  }

  it('the production worker registers the conversation workflow only (not the example agent loop)', () => {
    assert.deepEqual(Object.keys(productionWorkflows), ['conversationWorkflow']);
  });
});

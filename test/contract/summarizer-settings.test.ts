import { strict as assert } from 'node:assert';
import { defaultSettings, mergeSettings, SettingsError } from '../../src/contract/settings';
import {
  LEGACY_SUMMARIZER_FIELDS,
  MAX_INSTRUCTIONS,
  storedSummarizerSettings,
} from '../../src/contract/summarizer-settings';
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
    it(`rejects summarizer.${field} in new runs, saying to choose a profile`, () => {
      assert.throws(
        () => mergeSettings(defaultSettings, { summarizer: { [field]: 'http://127.0.0.1:9/v1' } }),
        (e: unknown) =>
          e instanceof SettingsError &&
          e.message.startsWith(`summarizer.${field} is not a conversation setting`) &&
          e.message.includes('choose one with summarizer.profile')
      );
    });
  }

  it('drops the pre-profile fields when replaying a run started before profiles (map)', () => {
    const merged = mergeSettings(
      defaultSettings,
      {
        summarizer: { mode: 'chat', baseURL: 'http://127.0.0.1:9/v1', apiKeyFile: '/etc/shadow', maxOutputTokens: 900 },
      },
      { legacySummarizer: 'map' }
    );
    assert.deepEqual(merged.summarizer, { profile: '', maxOutputTokens: 900, instructions: '', mode: 'chat' });
  });

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

  it('reads stored settings of any version: pre-profile endpoint fields are dropped', () => {
    const old = {
      mode: 'chat',
      model: 'small',
      baseURL: 'http://attacker.invalid/v1',
      apiKeyEnv: 'TEMPORAL_API_KEY',
      apiKeyFile: '/etc/shadow',
      timeoutMs: 1000,
      maxOutputTokens: 700,
    };
    assert.deepEqual(storedSummarizerSettings(old), {
      profile: '',
      maxOutputTokens: 700,
      instructions: '',
      mode: 'chat',
    });
    assert.deepEqual(storedSummarizerSettings({ profile: 'a', instructions: 'x' }), {
      profile: 'a',
      maxOutputTokens: 0,
      instructions: 'x',
    });
    assert.deepEqual(storedSummarizerSettings({ profile: 'http://x' }).profile, '');
    assert.deepEqual(storedSummarizerSettings(null), { profile: '', maxOutputTokens: 0, instructions: '' });
  });

  it('the production worker registers the conversation workflow only (not the example agent loop)', () => {
    assert.deepEqual(Object.keys(productionWorkflows), ['conversationWorkflow']);
  });
});

import { strict as assert } from 'node:assert';
import { DEFAULT_SAFETY_FACTOR, encodingForModel } from '../../src/tokens';

describe('encodingForModel', () => {
  const o200k = [
    'gpt-4o',
    'gpt-4o-mini-2024-07-18',
    'chatgpt-4o-latest',
    'gpt-4.1-nano',
    'gpt-5',
    'gpt-5.2-codex',
    'o1',
    'o3-mini',
    'o4-mini',
    'openai/gpt-4o',
  ];
  const cl100k = [
    'gpt-4',
    'gpt-4-0613',
    'gpt-4-turbo',
    'gpt-4-1106-preview',
    'gpt-3.5-turbo',
    'gpt-3.5-turbo-0125',
    'azure/gpt-35-turbo',
  ];

  for (const model of o200k) {
    it(`maps ${model} to o200k_base, exact`, () => {
      assert.deepEqual(encodingForModel(model), { encoding: 'o200k_base', exact: true, safetyFactor: 1 });
    });
  }
  for (const model of cl100k) {
    it(`maps ${model} to cl100k_base, exact`, () => {
      assert.deepEqual(encodingForModel(model), { encoding: 'cl100k_base', exact: true, safetyFactor: 1 });
    });
  }

  it('falls back to o200k_base with the safety factor for vocabularies we do not ship', () => {
    for (const model of [
      'claude-sonnet-4-5',
      'llama-3.1-70b',
      'gemini-2.5-pro',
      'mistral-large',
      'anthropic/claude-opus-4',
    ]) {
      assert.deepEqual(encodingForModel(model), {
        encoding: 'o200k_base',
        exact: false,
        safetyFactor: DEFAULT_SAFETY_FACTOR,
      });
    }
    assert.equal(encodingForModel('claude-3-haiku', 1.3).safetyFactor, 1.3);
  });

  it('rejects a safety factor below 1 or not finite', () => {
    assert.throws(() => encodingForModel('claude', 0.9), RangeError);
    assert.throws(() => encodingForModel('claude', Number.NaN), RangeError);
  });
});

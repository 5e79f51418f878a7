import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { PROTOCOL_SCHEMA_PATH } from '../../scripts/protocol-schema';
import { defaultSettings, mergeSettings } from '../../src/contract/settings';

const schema = JSON.parse(readFileSync(PROTOCOL_SCHEMA_PATH, 'utf8')) as { $id: string };
const ajv = new Ajv({ strict: false });
ajv.addSchema(schema);
const fitsSchema = ajv.getSchema(`${schema.$id}#/definitions/SettingsPatch`)!;
const accepted = (patch: unknown): boolean => {
  try {
    mergeSettings(defaultSettings, patch);
    return true;
  } catch {
    return false;
  }
};

// Patches a caller might send, each field at and past its bounds; both the check and the JSON Schema decide each.
const patches: unknown[] = [
  {},
  { model: 'claude-sonnet-4' },
  { model: ' \t' },
  { model: 7 },
  { budget: 256 },
  { budget: 255 },
  { budget: 1_000_000 },
  { budget: 1_000_001 },
  { budget: 1000.5 },
  { triggerRatio: 1 },
  { triggerRatio: 0 },
  { policy: 'turns' },
  { policy: 'newest' },
  { maxMessageBytes: 1023 },
  { maxContextBytes: 1_572_864 },
  { maxContextBytes: 1_572_865 },
  { unanswered: 'error' },
  { unanswered: 'ignore' },
  { evictAtRatio: 0 },
  { evictAtRatio: 1.01 },
  { foldMode: 'blocking' },
  { foldMode: 'later' },
  { prefoldRatio: 0 },
  { maxFoldWaitMs: 600_001 },
  { rules: ['Always answer in French.'] },
  { rules: 'Always answer in French.' },
  { rules: Array.from({ length: 65 }, (_, i) => `rule ${i}`) },
  { tools: [] },
  { tools: {} },
  { plan: { keepTurns: 3, pin: { roles: ['user'], indices: [0, 2] } } },
  { plan: { keepTurns: -1 } },
  { plan: { keepTurn: 3 } },
  { plan: { budget: 10 } },
  { plan: { pinTurnOpening: 0 } },
  { plan: { tailRatio: 0 } },
  { plan: { roundsMode: 'drop' } },
  { plan: { pin: { roles: ['boss'] } } },
  { plan: { filter: { indices: [1.5] } } },
  { plan: { filter: { ids: Array.from({ length: 1001 }, (_, i) => `id${i}`) } } },
  { summarizer: { profile: 'openai-mini', maxOutputTokens: 2000 } },
  { summarizer: { profile: 'https://evil.example/v1' } },
  { summarizer: { profile: '' } },
  { summarizer: { baseURL: 'http://localhost:1' } },
  { summarizer: { instructions: 'x'.repeat(4001) } },
  { budgett: 1 },
  [1],
  'budget',
];

describe('the settings JSON Schema and the settings check', () => {
  for (const patch of patches) {
    it(`agree on ${JSON.stringify(patch).slice(0, 70)}`, () => {
      assert.equal(fitsSchema(patch), accepted(patch), JSON.stringify(fitsSchema.errors));
    });
  }

  it('differ only where settings must fit together, which no JSON Schema can say', () => {
    const together = { triggerRatio: 0.5, plan: { targetRatio: 0.5 } };
    assert.equal(fitsSchema(together), true);
    assert.equal(accepted(together), false);
  });
});

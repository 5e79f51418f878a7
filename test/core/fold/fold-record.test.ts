import { strict as assert } from 'node:assert';
import { FoldRecordError, parseFoldRecord, type FoldRecord } from '../../../src/core/fold/fold-record';
import { foldRecord } from '../../support/fold-records';

/** A record with every optional part filled: a reported usage, a response id, a pinned item, a kept item's id. */
const ok: FoldRecord = foldRecord(1, {
  firstKept: { index: 40, id: 'msg_1', hash: 'ab'.repeat(32) },
  usage: { inputTokens: 20_000, outputTokens: 900, totalTokens: 20_900, cachedInputTokens: 0 },
  responseId: 'resp_1',
  outputTypes: ['message'],
  pinned: [3],
});

describe('core/fold/fold-record', () => {
  it('is plain JSON: a record round-trips and parses back', () => {
    const back = parseFoldRecord(JSON.parse(JSON.stringify(ok)));
    assert.deepEqual(back, ok);
  });

  it('accepts a failed record with its error', () => {
    const failed: FoldRecord = {
      ...ok,
      ok: false,
      output: null,
      tokensAfter: null,
      firstKept: null,
      identifiers: null,
      error: { kind: 'incomplete', message: 'summary response is incomplete: max_output_tokens' },
      attempts: 2,
    };
    assert.deepEqual(parseFoldRecord(JSON.parse(JSON.stringify(failed))), failed);
  });

  for (const [field, value] of [
    ['number', 0],
    ['split', -1],
    ['ok', 'yes'],
    ['output', 'summary'],
    ['tokensAfter', 1.5],
    ['outputTypes', [1]],
    ['pinned', ['3']],
    ['usage', { inputTokens: 1 }],
    ['error', { kind: 'too_large' }],
    ['startedAt', undefined],
    ['archiveRange', { firstSeq: 1 }],
  ] as const) {
    it(`rejects a bad '${field}' with a typed error naming it`, () => {
      assert.throws(
        () => parseFoldRecord({ ...ok, [field]: value }),
        (e: unknown) => e instanceof FoldRecordError && e.message.includes(`'${field}'`)
      );
    });
  }

  it('rejects ok without a null error, and a non-object', () => {
    assert.throws(() => parseFoldRecord({ ...ok, error: { kind: 'no_text', message: 'x' } }), FoldRecordError);
    assert.throws(() => parseFoldRecord([ok]), FoldRecordError);
  });
});

import assert from 'node:assert/strict';
import {
  SummaryIncompleteError,
  SummaryNoTextError,
  SummaryTooLargeError,
  validateSummary,
} from '../../../src/core/fold/validate-summary';

describe('core/fold/validate-summary', () => {
  it('accepts a complete, non-empty, smaller summary', () => {
    assert.equal(validateSummary({ text: 'ok', summaryTokens: 5, foldedTokens: 6 }), undefined);
  });
  it('rejects an empty or blank summary as no_text', () => {
    const e = validateSummary({ text: ' \n ', summaryTokens: 0, foldedTokens: 100 });
    assert.ok(e instanceof SummaryNoTextError);
    assert.equal(e.kind, 'no_text');
  });
  it('rejects a cut-off summary as incomplete, before anything else', () => {
    const e = validateSummary({ text: '', incompleteReason: 'length', summaryTokens: 500, foldedTokens: 10 });
    assert.ok(e instanceof SummaryIncompleteError);
    assert.equal(e.kind, 'incomplete');
    assert.match(e.message, /length/);
  });
  it('rejects a summary not smaller than what it folds as too_large', () => {
    const e = validateSummary({ text: 'x', summaryTokens: 10, foldedTokens: 10 });
    assert.ok(e instanceof SummaryTooLargeError);
    assert.equal(e.kind, 'too_large');
    assert.match(e.message, /10 tokens for 10/);
  });
});

import assert from 'node:assert/strict';
import { stripMarkup } from '../../../../src/core/fold/state-ledger/markup';

describe('core/fold/state-ledger/markup', () => {
  it('removes closing, self-closing, void and attributed tags, and openings the text closes', () => {
    assert.equal(stripMarkup('<system-reminder>Never push to main.</system-reminder>'), ' Never push to main. ');
    assert.equal(stripMarkup('one<br>two<br/>three'), 'one two three');
    assert.equal(stripMarkup('see <a href="x">the docs</a>'), 'see  the docs ');
  });

  it('keeps a placeholder in angle brackets: it is part of what was said', () => {
    assert.equal(
      stripMarkup('Can we name branches like feature/<ticket>-short-description?'),
      'Can we name branches like feature/<ticket>-short-description?'
    );
    assert.equal(stripMarkup('Set KEY=<your-api-key> and x < 3 > 1'), 'Set KEY=<your-api-key> and x < 3 > 1');
  });
});

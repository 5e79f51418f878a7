import assert from 'node:assert/strict';
import { acronymWords, stem, subjectWords } from '../../../../src/core/fold/state-ledger/sentences';

describe('core/fold/state-ledger/sentences', () => {
  describe('acronymWords', () => {
    it('counts the words an acronym of one text spells out in the other', () => {
      assert.equal(acronymWords('SLA is 4 hours now', 'the service level agreement says 8 hours'), 3);
      assert.equal(acronymWords('the ARR target', 'annual recurring revenue and churn'), 3);
    });

    it('counts nothing for two-letter acronyms, stop words or letters that spell no run', () => {
      assert.equal(acronymWords('the PR is open', 'production release'), 0, 'two letters match by chance');
      assert.equal(acronymWords('the SLA', 'see the list again'), 0, 'a stop word breaks the run');
      assert.equal(acronymWords('the SLA', 'service agreement'), 0);
    });
  });

  describe('stem', () => {
    it('gives inflections and derivations of one word one stem, and the plural of an acronym its singular', () => {
      assert.equal(stem('groceries'), stem('grocery'));
      assert.equal(stem('indentation'), stem('indent'));
      assert.equal(stem('deployment'), stem('deploys'));
      assert.equal(stem('cpus'), stem('cpu'));
      assert.notEqual(stem('formal'), stem('format'));
    });
  });

  describe('subjectWords', () => {
    it('reads "per day" as "daily", so a cap per period and a periodic cap share their subject', () => {
      assert.ok(subjectWords('The API allows 900 calls per day.').includes(stem('daily')));
      assert.ok(subjectWords('the daily cap is 2,000 calls').includes(stem('daily')));
      assert.ok(subjectWords('two reviews a week').includes(stem('weekly')));
    });

    it('does not count "switch" as a subject word', () => {
      assert.ok(!subjectWords('switch the staging hosts to the new image').includes('switch'));
    });
  });
});

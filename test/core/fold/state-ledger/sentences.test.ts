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

    it('reads the capitals of an identifier as its prefix, not as an acronym', () => {
      const incident = "Incident is INC-20931, it's a Sev2, and the status page entry is already up.";
      assert.equal(acronymWords(incident, '`_make_indent(num=comp_indent_num - this_indent_num)`'), 0);
      assert.equal(acronymWords('ticket PROJ-12 and PROJ-13', 'plan review of jobs'), 0);
      assert.equal(acronymWords('the INC queue', 'indent num comp'), 3, 'a free-standing acronym still counts');
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

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadFactSet, parseFactSet, valuePattern } from '../../bench/canaries/independent/facts';
import { measureIndependent, SCENARIOS } from '../../bench/canaries/independent/measure';
import type { IndependentReport } from '../../bench/canaries/independent/measure';

// The independent canary harness at CI size (two short sessions, one seed, a fixed 30% budget). The full table is
// `npm run bench canaries-independent`; this checks the harness itself: it reads the fact set strictly, and it can fail.
describe('independent canary harness', function () {
  this.timeout(120_000);
  const facts = loadFactSet(join(__dirname, '..', '..', 'bench', 'canaries', 'independent-facts.json'));
  let report: IndependentReport;
  before(async () => {
    report = await measureIndependent({
      facts,
      source: 'test',
      sessions: ['tau2-bench-gpt41-retail-task38', 'swe-agent-gpt4-pydicom__pydicom-1458'],
      seeds: [0],
      scenarios: SCENARIOS.filter((s) => s.name === 'fixed 30%'),
    });
  });

  it('reads every fact set the benchmark measures, strictly', () => {
    const dir = join(__dirname, '..', '..', 'bench', 'canaries');
    const sizes = [2, 3, 4, 5].map((n) => {
      const set = loadFactSet(join(dir, `independent-facts-${n}.json`));
      return [set.facts.length, set.updates.length];
    });
    assert.deepEqual(sizes, [
      [250, 50],
      [120, 60],
      [120, 60],
      [120, 60],
    ]);
  });

  it('reads the fact set and names the field that is wrong', () => {
    assert.equal(facts.facts.length, 276);
    assert.equal(facts.updates.length, 40);
    assert.throws(
      () => parseFactSet({ facts: [{ type: 'rule', text: 'Never X.', probes: [['Y']] }] }),
      /facts\[0\]: no alternative/
    );
    assert.throws(
      () => parseFactSet({ facts: [{ type: 'rule', speaker: 'bot', text: 'a', probes: [['a']] }] }),
      /speaker/
    );
    assert.throws(
      () =>
        parseFactSet({
          facts: [],
          updates: [{ first: 'A is 1.', later: 'A is 2.', oldValue: ['3'], newValue: ['2'] }],
        }),
      /updates\[0\]: no oldValue/
    );
  });

  it('finds a value as a whole token, beside a sign, a hyphen or a plural', () => {
    const found = (value: string, text: string): boolean => valuePattern(value).test(text.toLowerCase());
    assert.ok(found('5,000', 'the cap is now $5,000'));
    assert.ok(found('Wednesday', 'deploys on Wednesdays only'));
    assert.ok(found('March', 'the launch slipped to mid-March'));
    assert.ok(found('finance-ops@', 'send them to finance-ops@lumenpay.io'));
    assert.ok(!found('500', 'we have 1500 records'));
    assert.ok(!found('500', 'a 2.500 ms delay'));
    assert.ok(!found('2,000', 'it was $2,000.50'));
    assert.ok(!found('may', 'maybe later'));
  });

  it('refuses an update whose later statement does not state its new value as the measurement finds it', () => {
    assert.throws(
      () =>
        parseFactSet({
          facts: [],
          updates: [{ first: 'Batches of 200.', later: 'Batches of 1500 now.', oldValue: ['200'], newValue: ['500'] }],
        }),
      /updates\[0\]: no newValue/
    );
  });

  it('can fail: keeping the tail loses every early fact, and the fold keeps more than either baseline', () => {
    const r = report.scenarios['fixed 30%']!;
    assert.ok(r['keep-tail'].byPosition.early.total > 0);
    assert.equal(r['keep-tail'].byPosition.early.kept, 0);
    const kept = (m: 'fold' | 'keep-tail' | 'checklist'): number =>
      Object.values(r[m].byType).reduce((a, x) => a + x.kept, 0);
    assert.ok(kept('fold') > kept('checklist') && kept('fold') > kept('keep-tail'), JSON.stringify(r.fold.byType));
    assert.equal(report.refused, 0);
  });
});

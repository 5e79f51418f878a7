import assert from 'node:assert/strict';
import { supersedes } from '../../../../src/core/fold/state-ledger';
import type { LedgerEntry } from '../../../../src/core/fold/state-ledger';
import { sharedTypedSlot, typedValues } from '../../../../src/core/fold/state-ledger/typed-values';

const entry = (kind: LedgerEntry['kind'], text: string, seq: number): LedgerEntry => ({ kind, text, seq });
const types = (text: string): string[] => typedValues(text).map((v) => `${v.type}=${v.value}`);

describe('core/fold/state-ledger/typed-values', () => {
  describe('typedValues', () => {
    it('types amounts, shares, rates, sizes, durations, dates and times, without trailing punctuation', () => {
      assert.deepEqual(types('The offsite may cost $4,500, with 12% for contingency.'), ['money=$4,500', 'share=12%']);
      assert.deepEqual(types('Keep it under 40 requests per minute and 750 MB of heap.'), [
        'rate=40 requests per minute',
        'size=750 mb',
      ]);
      assert.deepEqual(types('Backups are kept 14 days; the audit is on March 3 at 9:30.'), [
        'duration:day=14 days',
        'date=march 3',
        'time=9:30',
      ]);
    });

    it('types a numbered name by its name and an identifier by its family', () => {
      assert.deepEqual(types('The runners use Node 18 and write to cache-eu-03.'), [
        'named:node=node 18',
        'family:cache-eu=cache-eu-03',
      ]);
      assert.deepEqual(types('write to ops@example.org'), ['email=ops@example.org']);
      assert.deepEqual(types('call +49 30 1234567 or +1-415-555-0100'), [
        'phone=+49 30 1234567',
        'phone=+1-415-555-0100',
      ]);
      assert.deepEqual(types('the cap is 40 req/s'), ['rate=40 req/s']);
    });
  });

  describe('sharedTypedSlot', () => {
    it('names the type whose older value the newer statement replaced', () => {
      assert.equal(sharedTypedSlot('the runners moved to Node 22', 'The runners use Node 18.'), 'named:node');
      assert.equal(sharedTypedSlot('heap can be 2 GB now', 'heap is 750 MB'), 'size');
    });

    it('finds none when the old value is still there, the types differ, or the newer one lists many', () => {
      assert.equal(sharedTypedSlot('still $300, and 20% tip', 'dinner is $300'), undefined);
      assert.equal(sharedTypedSlot('the retention is 30 days now', 'the dinner is $300'), undefined);
      assert.equal(sharedTypedSlot('prices: $5, $7 and $9', 'the fee is $3'), undefined);
      assert.equal(sharedTypedSlot('no calls in 90 days anymore', 'each call takes 300ms'), undefined, 'other units');
    });
  });

  describe('supersedes, on a typed slot', () => {
    it('replaces a value of the same type on a shared subject word, worded as a change', () => {
      const old = entry('constraint', 'The offsite dinner may cost $1,200 at most.', 1);
      assert.ok(supersedes(entry('fact', 'Finance approved a bigger offsite, up to $2,000 now.', 2), old));
      const pods = entry('constraint', 'Each pod gets 256 MiB of memory.', 1);
      assert.ok(supersedes(entry('fact', 'Ops bumped it: pods get 1 GiB now.', 2), pods), 'a short noun ties the slot');
      const runtime = entry('fact', 'The build agents run Node 18.', 1);
      assert.ok(supersedes(entry('fact', 'We upgraded the build agents to Node 22.', 2), runtime));
    });

    it('keeps a value of the same type about another subject, or not worded as a change', () => {
      const refund = entry('constraint', 'Refunds above $200 need a manager.', 1);
      assert.ok(!supersedes(entry('fact', 'Finance approved the travel budget: up to $3,000.', 2), refund));
      const disk = entry('fact', 'The staging database has 500 GB of disk.', 1);
      assert.ok(!supersedes(entry('fact', 'The log bucket was upgraded and holds 2 TB now.', 2), disk));
      const offsite = entry('constraint', 'The offsite dinner may cost $1,200 at most.', 1);
      assert.ok(!supersedes(entry('fact', 'The offsite photographer charges $400.', 2), offsite));
    });
  });
});

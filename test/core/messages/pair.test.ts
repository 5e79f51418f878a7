import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { extendTranscript, normalize } from '../../../src/core/messages/normalize';
import { unansweredCalls } from '../../../src/core/messages/pair';
import type { Transcript } from '../../../src/core/messages/types';
import { appendsOf, cutPoints, pairingMessages, pairingSteps } from '../../support/paired-transcripts';

/** A transcript, or the error reading it threw (what a caller sees of it). */
function outcome(read: () => Transcript): { transcript: Transcript } | { error: string } {
  try {
    return { transcript: read() };
  } catch (err) {
    const e = err as Error & { index?: number; kind?: string };
    return { error: `${e.name} ${e.index} ${e.kind} ${e.message}` };
  }
}

describe('pairing an append (pairAppended)', () => {
  for (const format of ['chat', 'anthropic'] as const) {
    it(`${format}: each append pairs, refuses and leaves open exactly what normalising the whole so far does`, () => {
      fc.assert(
        fc.property(pairingSteps(), cutPoints(), (steps, cuts) => {
          const messages = pairingMessages(steps, format);
          const appends = appendsOf(messages, cuts);
          let sent = appends[0]!;
          let base = outcome(() => normalize(sent, format));
          for (const more of appends.slice(1)) {
            if (!('transcript' in base)) return; // a stored context always reads
            const from = base.transcript;
            sent = [...sent, ...more];
            const whole = outcome(() => normalize(sent, format));
            base = outcome(() => extendTranscript(from, more));
            assert.deepEqual(base, whole);
            if ('transcript' in base && 'transcript' in whole) {
              // The calls left open, as the append remembered them, are those a reading of the whole finds.
              assert.deepEqual(unansweredCalls(base.transcript.items), unansweredCalls(whole.transcript.items));
            }
          }
        }),
        { numRuns: 500 }
      );
    });
  }

  it('the open calls it remembers are the calls no result answers, in order', () => {
    const t = extendTranscript(
      normalize([{ role: 'user', content: 'go' }], 'chat'),
      pairingMessages(
        [
          { kind: 'assistant', calls: ['a', 'b', 'a'], answered: 1, reversed: false },
          { kind: 'assistant', calls: ['b'], answered: 1, reversed: false },
        ],
        'chat'
      )
    );
    assert.deepEqual(
      unansweredCalls(t.items).map((c) => `${c.id}@${c.itemIndex}.${c.callIndex}`),
      ['a@1.0', 'b@1.1']
    );
  });
});

/**
 * The independent canaries' stale-value check (bench/canaries/independent/measure.ts): an old value counts as stated
 * only in a message the method wrote, on a line that names the first statement's subject, once both statements left
 * the context.
 */
import { strict as assert } from 'node:assert';
import { statesStale } from '../../bench/canaries/independent/measure';
import type { PlantedFact } from '../../bench/canaries/independent/plant';

const first = 'GPU quota for the team is 64, so keep the sweep under that';
const session = [
  { role: 'user', content: 'start the sweep' },
  { role: 'user', content: first },
  { role: 'assistant', content: 'ok' },
  { role: 'user', content: 'good news, quota got raised to 128 GPUs as of this morning' },
];
const planted: PlantedFact = {
  id: 'u1',
  type: 'update',
  speaker: 'user',
  position: 'middle',
  at: 3,
  probes: [['128']],
  update: { oldValue: ['64'], firstAt: 1, first },
};
const summary = (text: string): Record<string, unknown> => ({ role: 'user', content: `[Summary]\n${text}` });

describe('bench: the independent canaries’ stale-value check', () => {
  it('counts the old value on a line about the same subject', () => {
    assert.equal(statesStale([summary('- the GPU quota is 64'), session[2]!], planted, session), true);
  });

  it('does not count the same number on a line about something else', () => {
    const context = [summary('- the embedded target has 256 kb of flash and 64 kb ram\n- quota now 128 GPUs')];
    assert.equal(statesStale(context, planted, session), false);
  });

  it('does not count the first statement kept verbatim, nor a summary while either statement is still there', () => {
    assert.equal(statesStale([session[1]!, session[3]!], planted, session), undefined);
    assert.equal(statesStale([summary('- GPU quota 64'), session[3]!], planted, session), undefined);
  });
});

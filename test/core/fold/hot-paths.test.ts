import { strict as assert } from 'node:assert';
import { HOT_PATHS_CAP, emptyHotPaths, isHot, noteTurn, readsIn } from '../../../src/core/fold/hot-paths';
import { read, rg, session } from './session';

describe('core/fold/hot-paths', () => {
  it('TestHotPathsDecayAcrossTurns: a path read twice in a turn is hot, and cools when left alone', () => {
    let s = noteTurn(emptyHotPaths(), ['a.go', 'a.go', 'b.go']);
    assert.equal(isHot(s, 'a.go'), true);
    assert.equal(isHot(s, 'b.go'), false, 'one read is not enough');
    s = noteTurn(s, []);
    assert.equal(isHot(s, 'a.go'), false, 'halved to 1');
    s = noteTurn(s, ['a.go', 'a.go']);
    assert.equal(isHot(s, 'a.go'), true, '0.5 + 2');
    s = noteTurn(noteTurn(noteTurn(s, []), []), []);
    assert.deepEqual(s.scores, [], 'forgotten once below 0.5');
    // A heavily re-read path stays hot longer.
    let t = noteTurn(emptyHotPaths(), Array<string>(8).fill('x'));
    t = noteTurn(t, []);
    t = noteTurn(t, []);
    assert.equal(isHot(t, 'x'), true, '8 → 4 → 2');
    assert.equal(isHot(noteTurn(t, []), 'x'), false);
  });

  it('TestPinnedSetIsCapped: at most 12 paths, the highest scores kept', () => {
    const reads = Array.from({ length: 20 }, (_, i) =>
      Array<string>(2 + i).fill(`p${String(i).padStart(2, '0')}`)
    ).flat();
    const s = noteTurn(emptyHotPaths(), reads);
    assert.equal(s.scores.length, HOT_PATHS_CAP);
    assert.deepEqual(
      s.scores.map((x) => x.path),
      Array.from({ length: 12 }, (_, i) => `p${String(19 - i).padStart(2, '0')}`)
    );
    assert.equal(isHot(s, 'p00'), false);
    assert.equal(isHot(s, 'p19'), true);
  });

  it('is plain data that survives JSON, and does not modify the old state', () => {
    const s = noteTurn(emptyHotPaths(), ['a', 'a']);
    const copy = JSON.parse(JSON.stringify(s));
    const next = noteTurn(s, []);
    assert.deepEqual(s, copy);
    assert.deepEqual(noteTurn(copy, []), next);
  });

  it('reads the file paths a turn read from its tool calls', () => {
    const { transcript } = session(
      [read('a.go'), rg('x'), { name: 'Read', args: { file_path: 'b.go', offset: 3 } }, read('a.go')],
      2
    );
    assert.deepEqual(readsIn(transcript), ['a.go', 'b.go', 'a.go']);
    const secondTurn = transcript.items.findIndex((it, i) => i > 0 && it.turnStart);
    assert.deepEqual(readsIn(transcript, secondTurn), ['b.go', 'a.go']);
    assert.deepEqual(readsIn(transcript, 0, secondTurn), ['a.go']);
  });
});

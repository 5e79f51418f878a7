import { strict as assert } from 'node:assert';
import { countBounded, countText, LONG_PIECE, mayHaveLongPiece } from '../../src/tokens';
import { pieceCounterFor } from '../../src/tokens/count-text';
import { mergeByBuckets, mergeByHeap } from '../../src/tokens/long-piece';
import { RankTable, type RankEntry } from '../../src/tokens/rank-table';
import type { EncodingName } from '../../src/tokens';
import { mulberry32 } from '../support/rng';

// The reference: the library's own count, which is exact but quadratic on long pieces. Inputs are sized so the
// reference finishes in well under a second each (20–60 KB), yet hold pieces 100× longer than LONG_PIECE.
/* eslint-disable @typescript-eslint/no-require-imports */
const reference: Record<EncodingName, { countTokens(t: string, o: object): number }> = {
  o200k_base: require('gpt-tokenizer/encoding/o200k_base'),
  cl100k_base: require('gpt-tokenizer/encoding/cl100k_base'),
};
/* eslint-enable @typescript-eslint/no-require-imports */
const exact = (text: string, enc: EncodingName): number =>
  reference[enc].countTokens(text, { disallowedSpecial: new Set() });

const rng = mulberry32;
const pick = (n: number, alphabet: string, seed: number): string => {
  const r = rng(seed);
  const chars = [...alphabet];
  let s = '';
  for (let i = 0; i < n; i++) s += chars[Math.floor(r() * chars.length)];
  return s;
};
const minifiedJson = (n: number, seed: number): string => {
  const r = rng(seed);
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < n; i++) {
    const p = `"k${i}":${r() < 0.5 ? Math.floor(r() * 1e6) : JSON.stringify(pick(8, 'abcdefXYZ_', i))}`;
    parts.push(p);
    size += p.length + 1;
  }
  return `{${parts.join(',')}}`;
};

// Each case holds at least one piece far beyond LONG_PIECE (except minified JSON, included because it is a named
// worst case and must stay exact through the same path).
const cases: Record<string, (n: number) => string> = {
  'one repeated character': (n) => 'a'.repeat(n),
  'one unbroken lower-case identifier': (n) => pick(n, 'abcdefghijklmnopqrstuvwxyz', 1),
  'one unbroken upper-case identifier': (n) => pick(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 2),
  'a long run of spaces': (n) => ' '.repeat(n),
  'a punctuation run': (n) => pick(n, '{}[]":,.;=-_', 3),
  'newlines and slashes after punctuation': (n) => '!' + pick(n, '\n/', 4),
  'CJK without punctuation': (n) => pick(n / 3, '的一是不了人我在有他这中大来上国个到说们为', 5),
  'accented letters': (n) => pick(n / 2, 'éèàùâêîôûçëïü', 6),
  'prose around a long run': (n) =>
    'Here is the log:\n' + '='.repeat(n / 2) + '\nand the id ' + pick(n / 2, 'xyz', 7) + ' done.',
  'minified JSON': (n) => minifiedJson(n, 8),
};

describe('bounded worst case: error bound against the exact reference', () => {
  for (const enc of ['o200k_base', 'cl100k_base'] as const) {
    for (const [name, make] of Object.entries(cases)) {
      for (const size of [20_000, 60_000]) {
        if (enc === 'cl100k_base' && size > 20_000) continue; // one size per case is enough for the second vocabulary
        it(`${enc}: ${name}, ${size / 1000} KB: error 0 (bound: 1%)`, () => {
          const text = make(size);
          const want = exact(text, enc);
          const got = countText(text, enc);
          const error = Math.abs(got - want) / want;
          assert.ok(error <= 0.01, `error ${(error * 100).toFixed(3)}% > 1% (got ${got}, want ${want})`);
          assert.equal(got, want, 'the design is exact, so any difference is a bug');
        });
      }
    }
  }

  it('both long-piece merge paths agree with the reference on 40 random pieces', function () {
    this.timeout(120_000);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const table = new RankTable((require('gpt-tokenizer/bpeRanks/o200k_base') as { default: RankEntry[] }).default);
    const r = rng(42);
    for (let k = 0; k < 40; k++) {
      const alphabet = ['ab', 'abcdefghijklmnopqrstuvwxyz', 'aeiou', 'QWERTY', '-=_', ' '][k % 6]!;
      const piece = pick(300 + Math.floor(r() * 3000), alphabet, 100 + k);
      const bytes = Buffer.from(piece, 'utf8').toString('latin1');
      const want = exact(piece, 'o200k_base');
      assert.equal(mergeByHeap(bytes, table), want, `heap, piece ${k}`);
      const fast = mergeByBuckets(bytes, table);
      if (fast !== undefined) assert.equal(fast, want, `buckets, piece ${k}`);
    }
  });
});

describe('bounded worst case: the scan that keeps ordinary text on the fast path', () => {
  // Soundness: whenever the scan says "no long piece", the real pre-tokenizer finds none.
  it('never misses a piece of LONG_PIECE or more (random texts from adversarial alphabets)', () => {
    const split = pieceCounterFor('o200k_base').splitRegex;
    const split100 = pieceCounterFor('cl100k_base').splitRegex;
    const alphabets = ['ab \n', 'a/\n!', 'Aa_b', ' \t\n', 'é漢 a', "x'sll", '12ab', '!\n/\r'];
    const r = rng(7);
    let clean = 0;
    for (let k = 0; k < 400; k++) {
      const alphabet = alphabets[k % alphabets.length]!;
      const text = pick(200 + Math.floor(r() * 1500), alphabet, 1000 + k).replace(/ {60,}/g, ' ');
      if (mayHaveLongPiece(text)) continue;
      clean++;
      for (const re of [split, split100]) {
        for (const m of text.matchAll(re))
          assert.ok(m[0].length < LONG_PIECE, `piece of ${m[0].length} missed in case ${k}`);
      }
    }
    assert.ok(clean > 100, `too few texts took the fast path (${clean}) for the check to mean anything`);
  });

  it('flags a run just over the bound and not one just under it', () => {
    const half = LONG_PIECE / 2;
    assert.equal(mayHaveLongPiece(`x ${'a'.repeat(half - 1)} y`.padEnd(LONG_PIECE, ' b')), false);
    assert.equal(mayHaveLongPiece(`x ${'a'.repeat(LONG_PIECE)} y`), true);
  });

  it('finds a run of MAX_RUN + 1 at every offset against the 64-char blocks, and never one of MAX_RUN', () => {
    const maxRun = LONG_PIECE / 2 - 1;
    for (let offset = 0; offset < 140; offset++) {
      for (const [unit, filler] of [
        ['a', ' 1 '],
        ['=', ' a '],
        [' ', '1x1'],
        ['\n', 'x1y'],
      ] as const) {
        const pad = filler.repeat(Math.ceil(offset / 3)).slice(0, offset);
        const tail = filler.repeat(120);
        assert.equal(
          mayHaveLongPiece(pad + unit.repeat(maxRun + 1) + tail),
          true,
          `${JSON.stringify(unit)} at ${offset}`
        );
        assert.equal(mayHaveLongPiece(pad + unit.repeat(maxRun) + tail), false, `${JSON.stringify(unit)} at ${offset}`);
      }
    }
  });

  it('slices at piece boundaries: ordinary text around long pieces counts exactly', () => {
    const counter = pieceCounterFor('o200k_base');
    const text = `  Don't stop  \n\n${'z'.repeat(5000)}\n\n  it's <|endoftext|> ${'-'.repeat(3000)}   ok`;
    assert.equal(countBounded(text, counter), exact(text, 'o200k_base'));
  });
});

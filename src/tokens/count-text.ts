/**
 * Raw text counting with `gpt-tokenizer`, one encoding module per vocabulary, loaded lazily once per process (the
 * o200k_base module costs ~180 ms and ~20 MB, so a worker that never counts never pays it). Only `countTokens` is
 * used: it counts without building a token array.
 */
import type { EncodingName } from './encoding-for-model';
import { countBounded, type PieceCounter } from './bounded';
import { RankTable, type RankEntry } from './rank-table';
import { countLongPiece } from './long-piece';

interface EncodingModule {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

// Special-token strings inside message text ("<|endoftext|>" pasted into a chat) are ordinary text to the API; the
// library's default would throw on them. An empty disallow set with no allow set counts them as plain text.
const ORDINARY = { disallowedSpecial: new Set<string>() };

/* eslint-disable @typescript-eslint/no-require-imports -- lazy, synchronous loading is the point of this module */
const loaders: Record<EncodingName, () => { api: EncodingModule; ranks: () => readonly RankEntry[]; split: RegExp }> = {
  o200k_base: () => ({
    api: require('gpt-tokenizer/encoding/o200k_base') as EncodingModule,
    ranks: () => (require('gpt-tokenizer/bpeRanks/o200k_base') as { default: RankEntry[] }).default,
    split: (require('gpt-tokenizer/encodingParams/constants') as { O200K_TOKEN_SPLIT_REGEX: RegExp })
      .O200K_TOKEN_SPLIT_REGEX,
  }),
  cl100k_base: () => ({
    api: require('gpt-tokenizer/encoding/cl100k_base') as EncodingModule,
    ranks: () => (require('gpt-tokenizer/bpeRanks/cl100k_base') as { default: RankEntry[] }).default,
    split: (require('gpt-tokenizer/encodingParams/constants') as { CL100K_TOKEN_SPLIT_REGEX: RegExp })
      .CL100K_TOKEN_SPLIT_REGEX,
  }),
};
/* eslint-enable @typescript-eslint/no-require-imports */

const counters = new Map<EncodingName, PieceCounter>();

/**
 * The process-wide counter for one vocabulary, created on first use. The byte rank table for long pieces is built
 * on the first long piece only (~0.2 s, ~20 MB), from the same rank array the library already holds.
 */
export function pieceCounterFor(encoding: EncodingName): PieceCounter {
  let counter = counters.get(encoding);
  if (!counter) {
    const { api, ranks, split } = loaders[encoding]();
    let table: RankTable | undefined;
    counter = {
      countOrdinary: (text) => (text.length === 0 ? 0 : api.countTokens(text, ORDINARY)),
      splitRegex: split,
      countLongPiece: (piece) => {
        table ??= new RankTable(ranks());
        return countLongPiece(Buffer.from(piece, 'utf8').toString('latin1'), table);
      },
    };
    counters.set(encoding, counter);
  }
  return counter;
}

/**
 * Counts the tokens of `text` in `encoding`, exactly and in bounded time (see bounded.ts).
 * @returns the raw token count (no message overhead); 0 for the empty string.
 */
export function countText(text: string, encoding: EncodingName): number {
  return countBounded(text, pieceCounterFor(encoding));
}

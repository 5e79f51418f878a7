import type { TextCounter } from '../../src/summarizers/types';

/**
 * A deterministic stand-in token counter for summarizer tests (4 characters a token, 3 per message): the behaviour
 * under test is the summarizer's, not the tokenizer's. The acceptance test uses the real tokenizer.
 */
export const testCounter: TextCounter = {
  countText: (text) => Math.ceil(text.length / 4),
  countMessages: (raws) => raws.map((r) => 3 + Math.ceil(JSON.stringify(r).length / 4)),
};

/** `counterFor` for `createSummarizer` deps. */
export const testCounterFor = (): TextCounter => testCounter;

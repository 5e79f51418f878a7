/**
 * Synthetic agent prose for size tests and benchmarks: deterministic (seeded), varied enough that the tokenizer
 * counts ~360 tokens per message, and each under the 4 KB a lightened string keeps whole.
 */
import { mulberry32 } from './rng';

const WORDS = 'archive budget context delta entry fold guard handler index journal kernel ledger module number offset '
  .concat('payload query record stage token update value worker yield zone the of and to in')
  .split(' ');

/** A source of messages numbered 0, 1, 2, … (user and assistant in turn), ~2 000 characters each. */
export function proseMessages(seed: number): (k: number) => { role: string; content: string } {
  const rng = mulberry32(seed);
  return (k) => {
    const words: string[] = [];
    let length = 0;
    while (length < 2000) {
      const w = `${WORDS[Math.floor(rng() * WORDS.length)]!}${rng() < 0.2 ? Math.floor(rng() * 1000) : ''}`;
      words.push(w);
      length += w.length + 1;
    }
    return { role: k % 2 === 0 ? 'user' : 'assistant', content: `#${k} ${words.join(' ')}` };
  };
}

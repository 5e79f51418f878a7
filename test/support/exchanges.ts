/** The shape both provider-format generators share: exchanges of a user message (maybe with media) and agent steps. */
import fc from 'fast-check';

/** Up to `max` lorem words. */
export const prose = (max: number): fc.Arbitrary<string> => fc.lorem({ maxCount: max, mode: 'words' });

/** One exchange: the user's text, an attachment kind, and 1–4 agent steps. */
export interface Exchange<S> {
  user: string;
  media: 'none' | 'image' | 'file';
  steps: S[];
}

/** 1–12 exchanges of the given steps. */
export function exchanges<S>(step: fc.Arbitrary<S>): fc.Arbitrary<Exchange<S>[]> {
  return fc.array(
    fc.record({
      user: prose(150),
      media: fc.constantFrom('none' as const, 'image' as const, 'file' as const),
      steps: fc.array(step, { minLength: 1, maxLength: 4 }),
    }),
    { minLength: 1, maxLength: 12 }
  );
}

/** The `compactNow` update's input: its type, its check and its JSON Schema, from one schema. */
import * as z from 'zod/v4-mini';
import { exactly, text } from './leaves';

/** Longest `focus`, in characters: instructions for one summary, not a document. */
export const MAX_FOCUS_CHARS = 2000;

/** Input of `compactNow`. */
export const compactNowFields = exactly(
  {
    /**
     * What the summary should keep above all (at most {@link MAX_FOCUS_CHARS} characters). The model summarizers get
     * it after their instructions; the offline digest keeps the narrative lines that mention its words first.
     * @default none
     */
    focus: z.optional(text(MAX_FOCUS_CHARS)),
  },
  'must be an object {focus?}'
);

/** What `compactNow` accepts: its input, or nothing. */
export const compactNowArgument = z.optional(z.nullable(compactNowFields));

export type CompactNowInput = z.infer<typeof compactNowFields>;

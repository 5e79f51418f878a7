/** The `waitForFold` update's input: its type, its check and its JSON Schema, from one schema. */
import * as z from 'zod/v4-mini';
import { exactly, intFrom } from './leaves';

/** Longest wait of one `waitForFold` call, ms. */
export const MAX_FOLD_WAIT_MS = 600_000;

/** Input of `waitForFold`. */
export const waitForFoldFields = exactly(
  {
    /** Give up after this long, ms (0 to {@link MAX_FOLD_WAIT_MS}). @default MAX_FOLD_WAIT_MS */
    timeoutMs: z.optional(intFrom(0, MAX_FOLD_WAIT_MS)),
  },
  'must be an object {timeoutMs?}'
);

/** What `waitForFold` accepts: its input, or nothing. */
export const waitForFoldArgument = z.optional(z.nullable(waitForFoldFields));

export type WaitForFoldInput = z.infer<typeof waitForFoldFields>;

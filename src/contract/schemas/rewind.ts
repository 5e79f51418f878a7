/** The `rewind` update's input: its type, its check and its JSON Schema, from one schema. */
import * as z from 'zod/v4-mini';
import { count, exactly } from './leaves';

/** Input of `rewind` (may be omitted). */
export const rewindFields = exactly(
  {
    /** Refuse (`VersionMismatch`) unless the context is at this version, so a stale caller cannot remove a newer round. */
    expectedVersion: z.optional(count()),
  },
  'must be an object {expectedVersion?}'
);

/** What `rewind` accepts: its input, or nothing. */
export const rewindArgument = z.optional(z.nullable(rewindFields));

export type RewindInput = z.infer<typeof rewindFields>;

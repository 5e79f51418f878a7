/**
 * `settings.summarizer`, what a conversation may say of its summarizer: a profile *name* and the two harmless
 * tunings, with each refusal and their JSON Schema, from one schema. Endpoints, models and key sources are never
 * conversation settings (see `summarizer-settings.ts`).
 */
import * as z from 'zod/v4-mini';
import { intFrom, matching, says } from './leaves';

/** What a profile name may look like (checked in conversation settings and the worker's configuration alike). */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Longest `instructions`, in characters. */
export const MAX_INSTRUCTIONS = 4000;

const profile = says(
  "must be '' (the worker's default) or a profile name of letters, digits, '.', '_' and '-' (at most 64)"
);

/** A `summarizer` settings patch: each field optional (absent: unchanged). */
export const summarizerPatch = z.strictObject(
  {
    /** A profile configured on the worker (temporal.yaml); '' = the worker's default profile. */
    profile: z.optional(matching(z.string(profile), new RegExp(`^$|${PROFILE_NAME.source}`), profile)),
    /** Cap on summary output tokens; 0 = min(budget/2, 8192). The profile's cap still applies. */
    maxOutputTokens: z.optional(intFrom(0, 1_000_000)),
    /** Extra instructions for the model modes. */
    instructions: z.optional(
      z
        .string(says('must be a string'))
        .check(z.maxLength(MAX_INSTRUCTIONS, says(`must be at most ${MAX_INSTRUCTIONS} characters`)))
    ),
  },
  says('must be an object')
);

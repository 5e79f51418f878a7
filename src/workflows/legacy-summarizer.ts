/**
 * Which rule a run applies to the pre-profile summarizer fields (`baseURL`, `apiKeyEnv`, `apiKeyFile`, `mode`, `model`,
 * `timeoutMs`). Runs started by earlier code accepted them: replaying such a run must take the same path, so they are
 * dropped there (`map`; the worker's default profile is used, never the named endpoint). New runs reject them with a
 * message saying to choose a profile. Workflow code only (it records a patch marker).
 */
import { patched } from '@temporalio/workflow';
import type { LegacySummarizerPolicy } from '../contract/summarizer-settings';

/** The patch id marking runs started with summarizer profiles. */
export const SUMMARIZER_PROFILES_PATCH = 'summarizer-profiles-instead-of-endpoints';

/** @returns `reject` in runs started with profiles, `map` when replaying a run started before them. */
export function legacySummarizerPolicy(): LegacySummarizerPolicy {
  return patched(SUMMARIZER_PROFILES_PATCH) ? 'reject' : 'map';
}

import { DEFAULT_PROFILE_NAME, type SummarizerProfiles } from '../../src/summarizers/profiles';
import type { SummarizerConfig } from '../../src/summarizers/types';

/** The profile name tests use for a model summarizer on the local OpenAI-compatible server. */
export const TEST_CHAT_PROFILE = 'test-chat';

/**
 * A worker's profiles for tests: the offline default, and `test-chat` (chat mode on `baseURL`, model `small`, key in
 * `DC_TEST_KEY`), plus any others given.
 */
export function testProfiles(baseURL: string, others: Record<string, SummarizerConfig> = {}): SummarizerProfiles {
  return {
    defaultProfile: DEFAULT_PROFILE_NAME,
    profiles: new Map<string, SummarizerConfig>([
      [DEFAULT_PROFILE_NAME, { mode: 'extractive' }],
      [TEST_CHAT_PROFILE, { mode: 'chat', baseURL, apiKeyEnv: 'DC_TEST_KEY', model: 'small' }],
      ...Object.entries(others),
    ]),
  };
}

/**
 * API-key lookup. The key is read at call time inside the activity, from a file named in config or an environment
 * variable named in config, so it never travels in activity inputs, results, errors or logs.
 */
import { readFileSync } from 'node:fs';
import { SummarizerConfigError } from './classify-error';
import type { SummarizerMode } from './types';

/** Default environment variable for the key of the OpenAI modes. */
export const DEFAULT_API_KEY_ENV = 'OPENAI_API_KEY';

/** Default environment variable for the key, per provider: each SDK's own convention. */
const KEY_ENV_OF_MODE: Partial<Record<SummarizerMode, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  'anthropic-compact': 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
};

/** @returns the variable a mode reads its key from when the configuration names none */
export function defaultApiKeyEnv(mode: SummarizerMode | undefined): string {
  return (mode && KEY_ENV_OF_MODE[mode]) ?? DEFAULT_API_KEY_ENV;
}

/**
 * Reads the API key: `apiKeyFile` when set, else the variable `apiKeyEnv` (default: the mode's, see
 * {@link defaultApiKeyEnv}).
 *
 * @returns the key, trimmed
 * @throws SummarizerConfigError naming the file or variable (never a key) when none is found
 */
export function readApiKey(
  config: { apiKeyEnv?: string; apiKeyFile?: string },
  env: NodeJS.ProcessEnv = process.env,
  mode?: SummarizerMode
): string {
  if (config.apiKeyFile) {
    let key: string;
    try {
      key = readFileSync(config.apiKeyFile, 'utf8').trim();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new SummarizerConfigError(`API key file ${config.apiKeyFile} cannot be read (${code})`);
    }
    if (!key) throw new SummarizerConfigError(`API key file ${config.apiKeyFile} is empty`);
    return key;
  }
  const name = config.apiKeyEnv ?? defaultApiKeyEnv(mode);
  const key = env[name]?.trim();
  if (!key) throw new SummarizerConfigError(`no API key: environment variable ${name} is not set`);
  return key;
}

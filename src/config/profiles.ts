/**
 * `summarizerProfiles:` in temporal.yaml, and the profile set the worker serves: the `summarizer:` section is the
 * profile named `default`, each entry of `summarizerProfiles` another one. Only the worker's configuration names
 * endpoints and key sources; a conversation picks a profile by name (see `src/summarizers/profiles.ts`).
 */
import { PROFILE_NAME } from '../contract/summarizer-settings';
import { defaultApiKeyEnv } from '../summarizers/api-key';
import { DEFAULT_PROFILE_NAME, type SummarizerProfiles } from '../summarizers/profiles';
import type { SummarizerConfig, SummarizerMode } from '../summarizers/types';
import { REQUEST_FIELDS_BY_MODE, type ReasoningEffort, type RequestFields } from '../summarizers/request-fields';
import { ConfigError, checkSetting } from './config-error';
import { schema, type Config, type ProfileKey, type Setting, type SummarizerProfileConfig } from './schema';

const profileKeys = Object.keys(schema.summarizer).filter((k) => k !== 'profile') as ProfileKey[];

/**
 * Parses and checks the `summarizerProfiles:` section (environment variables do not apply to named profiles).
 * @returns name → profile, every key filled with the `summarizer:` section's defaults.
 * @throws ConfigError naming the profile and key.
 */
export function parseSummarizerProfiles(raw: unknown, path: string): Record<string, SummarizerProfileConfig> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError(`${path}: 'summarizerProfiles' must be a mapping`);
  const out: Record<string, SummarizerProfileConfig> = {};
  for (const [name, given] of Object.entries(raw as Record<string, unknown>)) {
    const where = `${path}: 'summarizerProfiles.${name}'`;
    if (!PROFILE_NAME.test(name)) {
      throw new ConfigError(`${where}: a profile name is letters, digits, '.', '_' and '-' (at most 64)`);
    }
    if (name === DEFAULT_PROFILE_NAME) {
      throw new ConfigError(`${where}: the profile named '${DEFAULT_PROFILE_NAME}' is the 'summarizer:' section`);
    }
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw new ConfigError(`${where} must be a mapping of ${profileKeys.join(', ')}`);
    }
    const values: Record<string, unknown> = {};
    for (const key of Object.keys(given)) {
      if (!(profileKeys as string[]).includes(key)) {
        throw new ConfigError(`${where}: unknown key '${key}' (known: ${profileKeys.join(', ')})`);
      }
    }
    for (const key of profileKeys) {
      const value = (given as Record<string, unknown>)[key];
      const setting: Setting = schema.summarizer[key];
      values[key] =
        value === undefined || value === null ? setting.default : checkSetting(value, setting, `${where}.${key}`);
    }
    out[name] = values as SummarizerProfileConfig;
  }
  return out;
}

/**
 * The profiles the worker serves: `default` from the `summarizer:` section, the others from `summarizerProfiles:`.
 * @returns the profile set, its default being `summarizer.profile`.
 * @throws ConfigError for a base URL that is not http(s), or a default profile that does not exist.
 */
export function profilesFromConfig(config: Config): SummarizerProfiles {
  const { profile: defaultProfile, ...own } = config.summarizer;
  const entries: [string, SummarizerProfileConfig][] = [
    [DEFAULT_PROFILE_NAME, own],
    ...Object.entries(config.summarizerProfiles),
  ];
  const profiles = new Map<string, SummarizerConfig>();
  for (const [name, p] of entries) profiles.set(name, summarizerConfigOf(name, p));
  if (!profiles.has(defaultProfile)) {
    throw new ConfigError(
      `summarizer.profile names '${defaultProfile}', which is not a profile (profiles: ${[...profiles.keys()].join(', ')})`
    );
  }
  return { defaultProfile, profiles };
}

/** Each mode's own API, where a profile names no base URL. */
const PROVIDER_BASE_URL: Record<Exclude<SummarizerMode, 'extractive'>, string> = {
  chat: 'https://api.openai.com/v1',
  responses: 'https://api.openai.com/v1',
  compact: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  'anthropic-compact': 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
};

function summarizerConfigOf(name: string, p: SummarizerProfileConfig): SummarizerConfig {
  const mode = p.mode as SummarizerMode;
  const baseURL = p.baseURL !== '' ? p.baseURL : PROVIDER_BASE_URL[mode === 'extractive' ? 'chat' : mode];
  let url: URL | undefined;
  try {
    url = new URL(baseURL);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ConfigError(
      `summarizer profile '${name}': baseURL must be an http(s) URL, got ${JSON.stringify(baseURL)}`
    );
  }
  return {
    mode,
    model: p.model,
    baseURL,
    apiKeyEnv: p.apiKeyEnv !== '' ? p.apiKeyEnv : defaultApiKeyEnv(mode),
    ...(p.apiKeyFile !== '' ? { apiKeyFile: p.apiKeyFile } : {}),
    timeoutMs: p.timeoutMs,
    ...(p.maxOutputTokens > 0 ? { outputTokensCap: p.maxOutputTokens } : {}),
    ...(p.thinkingBudget > 0 ? { thinkingBudget: p.thinkingBudget } : {}),
    ...requestFieldsOf(name, mode, p),
  };
}

/**
 * The allow-listed request fields a profile sets (`request-fields.ts`), for the modes that send them.
 * @returns `{ request }`, or `{}` when none is set.
 * @throws ConfigError naming the profile and field when the mode does not send it or the value is out of its range.
 */
function requestFieldsOf(name: string, mode: SummarizerMode, p: SummarizerProfileConfig): { request?: RequestFields } {
  const set: RequestFields = {
    ...(p.temperature !== -1 ? { temperature: p.temperature } : {}),
    ...(p.topP !== -1 ? { topP: p.topP } : {}),
    ...(p.reasoningEffort !== '' ? { reasoningEffort: p.reasoningEffort as ReasoningEffort } : {}),
  };
  const byMode: Record<SummarizerMode, readonly (keyof RequestFields)[]> = REQUEST_FIELDS_BY_MODE;
  const allowed = byMode[mode];
  for (const field of Object.keys(set) as (keyof RequestFields)[]) {
    if (!allowed.includes(field)) {
      const modes = Object.entries(byMode)
        .filter(([, fields]) => fields.includes(field))
        .map(([m]) => m);
      throw new ConfigError(
        `summarizer profile '${name}': ${field} is not sent by mode ${mode} (only by ${modes.join(', ')}); remove it`
      );
    }
  }
  if (mode.startsWith('anthropic') && set.temperature !== undefined && set.temperature > 1)
    throw new ConfigError(
      `summarizer profile '${name}': temperature must be ≤ 1 for mode ${mode}, got ${set.temperature}`
    );
  return Object.keys(set).length > 0 ? { request: set } : {};
}

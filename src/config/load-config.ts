import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigError, checkSetting as check } from './config-error';
import { parseSummarizerProfiles } from './profiles';
import { mergeStartSettings } from '../contract/fold-target';
import { schema, type Config, type Setting } from './schema';

/** Sections that are not a fixed table of keys: parsed by their own module. */
const mapSections = { summarizerProfiles: parseSummarizerProfiles } as const;

export { ConfigError };

/**
 * Loads `temporal.yaml` (or `$DC_CONFIG`), applies environment overrides, fills defaults and validates.
 * @returns the full configuration, every key present.
 * @throws ConfigError naming the key on an unknown key, a wrong type or a value out of range, or naming the
 *   `compaction` defaults that do not fit together (say, a `triggerRatio` at or below the fold target).
 */
export function loadConfig(
  path = process.env.DC_CONFIG ?? 'temporal.yaml',
  env: NodeJS.ProcessEnv = process.env
): Config {
  let file: unknown = {};
  if (existsSync(path)) {
    try {
      file = parse(readFileSync(path, 'utf8')) ?? {};
    } catch (err) {
      throw new ConfigError(`${path}: not valid YAML: ${(err as Error).message}`);
    }
  } else if (env.DC_CONFIG !== undefined) {
    throw new ConfigError(`DC_CONFIG names ${path}, which does not exist`);
  }
  if (!isRecord(file)) throw new ConfigError(`${path}: the top level must be a mapping of sections`);
  const out: Record<string, Record<string, unknown>> = {};
  const sections = [...Object.keys(schema), ...Object.keys(mapSections)];
  for (const key of Object.keys(file)) {
    // Own keys only: `__proto__` or `constructor` must not pass through the prototype chain.
    if (!Object.hasOwn(schema, key) && !Object.hasOwn(mapSections, key))
      throw new ConfigError(`${path}: unknown section '${key}' (known: ${sections.join(', ')})`);
  }
  for (const [section, settings] of Object.entries(schema) as [string, Record<string, Setting>][]) {
    const given = file[section] ?? {};
    if (!isRecord(given)) throw new ConfigError(`${path}: '${section}' must be a mapping`);
    for (const key of Object.keys(given)) {
      if (!Object.hasOwn(settings, key)) {
        throw new ConfigError(`${path}: unknown key '${section}.${key}' (known: ${Object.keys(settings).join(', ')})`);
      }
    }
    const values: Record<string, unknown> = {};
    for (const [key, setting] of Object.entries(settings)) {
      const fromEnv = setting.env !== undefined ? env[setting.env] : undefined;
      values[key] =
        fromEnv !== undefined && fromEnv !== ''
          ? coerce(fromEnv, setting, `environment variable ${setting.env} (${section}.${key})`)
          : given[key] === undefined || given[key] === null
            ? setting.default
            : check(given[key], setting, `${path}: '${section}.${key}'`);
    }
    out[section] = values;
  }
  // The compaction defaults are each in range; they must also fit together as a new conversation's settings would
  // (over the new-conversation fold target where they do not fit the core's defaults, as the worker applies them).
  try {
    mergeStartSettings(out.compaction);
  } catch (err) {
    throw new ConfigError(`${path}: compaction: ${(err as Error).message}`);
  }
  return {
    ...(out as Omit<Config, keyof typeof mapSections>),
    summarizerProfiles: parseSummarizerProfiles(file.summarizerProfiles, path),
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Environment values are strings: parse them into the setting's type first. */
function coerce(raw: string, s: Setting, where: string): unknown {
  if (s.type === 'integer' || s.type === 'number') return check(raw.trim() === '' ? NaN : Number(raw), s, where, raw);
  if (s.type === 'boolean') {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    throw new ConfigError(`${where} must be a boolean (true/false), got ${JSON.stringify(raw)}`);
  }
  return check(raw, s, where);
}

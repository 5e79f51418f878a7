import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { schema, type Config, type Setting } from './schema';

/** Bad configuration: the message names the file or variable and the key. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Loads `temporal.yaml` (or `$DC_CONFIG`), applies environment overrides, fills defaults and validates.
 * @returns the full configuration, every key present.
 * @throws ConfigError naming the key on an unknown key, a wrong type or a value out of range.
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
  for (const key of Object.keys(file)) {
    // Own keys only: `__proto__` or `constructor` must not pass through the prototype chain.
    if (!Object.hasOwn(schema, key))
      throw new ConfigError(`${path}: unknown section '${key}' (known: ${Object.keys(schema).join(', ')})`);
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
  return out as Config;
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

function check(v: unknown, s: Setting, where: string, shown: unknown = v): unknown {
  const bad = (want: string): never => {
    throw new ConfigError(`${where} must be ${want}, got ${JSON.stringify(shown)}`);
  };
  switch (s.type) {
    case 'string':
      return typeof v === 'string' ? v : bad('a string');
    case 'boolean':
      return typeof v === 'boolean' ? v : bad('a boolean');
    case 'enum':
      return typeof v === 'string' && s.values?.includes(v) ? v : bad(`one of ${s.values?.join(', ')}`);
    case 'integer':
    case 'number': {
      const range = `${s.min !== undefined ? ` ≥ ${s.min}` : ''}${s.max !== undefined ? ` and ≤ ${s.max}` : ''}`;
      const want = `${s.type === 'integer' ? 'an integer' : 'a number'}${range}`;
      if (typeof v !== 'number' || !Number.isFinite(v)) return bad(want);
      if (s.type === 'integer' && !Number.isInteger(v)) return bad(want);
      if ((s.min !== undefined && v < s.min) || (s.max !== undefined && v > s.max)) return bad(want);
      return v;
    }
  }
}

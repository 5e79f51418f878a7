/** The configuration's error class and the check of one value against its setting. */
import type { Setting } from './schema';

/** Bad configuration: the message names the file or variable and the key. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Checks one value against its setting.
 * @param shown what the message quotes (the raw text of an environment variable). @default the value
 * @returns the value.
 * @throws ConfigError naming `where` and what was expected.
 */
export function checkSetting(v: unknown, s: Setting, where: string, shown: unknown = v): unknown {
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

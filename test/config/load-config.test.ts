import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load-config';
import { schema } from '../../src/config/schema';

const dir = mkdtempSync(join(tmpdir(), 'dc-config-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('loadConfig (temporal.yaml)', () => {
  it('gives every default when the file is absent', () => {
    const config = loadConfig(join(dir, 'missing.yaml'), {});
    for (const [section, settings] of Object.entries(schema)) {
      for (const [key, setting] of Object.entries(settings)) {
        assert.equal(
          (config as unknown as Record<string, Record<string, unknown>>)[section]![key],
          setting.default,
          `${section}.${key}`
        );
      }
    }
  });

  it('the shipped temporal.yaml is valid and states the defaults', () => {
    const shipped = loadConfig(join(__dirname, '..', '..', 'temporal.yaml'), {});
    assert.deepEqual(shipped, loadConfig(join(dir, 'missing.yaml'), {}));
  });

  it('reads values from the file and lets environment variables override them', () => {
    const path = file(
      'a.yaml',
      'temporal:\n  namespace: agents\nworker:\n  maxCachedWorkflows: 7\ncompaction:\n  budget: 32000\n'
    );
    const config = loadConfig(path, {
      TEMPORAL_NAMESPACE: 'from-env',
      COMPACTION_BUDGET: '64000',
      TEMPORAL_TLS: 'true',
    });
    assert.equal(config.temporal.namespace, 'from-env');
    assert.equal(config.worker.maxCachedWorkflows, 7);
    assert.equal(config.compaction.budget, 64000);
    assert.equal(config.temporal.tls, true);
    const retention = loadConfig(file('r.yaml', 'retention:\n  sweepMinutes: 5\n'), { RETENTION_CLOSED_DAYS: '30' });
    assert.deepEqual(retention.retention, { closedDays: 30, sweepMinutes: 5 });
  });

  const rejects: [string, string, Record<string, string>, RegExp][] = [
    ['an unknown section', 'tempral:\n  address: x\n', {}, /unknown section 'tempral'/],
    ['an unknown key', 'worker:\n  maxCached: 3\n', {}, /unknown key 'worker\.maxCached'/],
    ['a wrong type', 'worker:\n  maxCachedWorkflows: lots\n', {}, /'worker\.maxCachedWorkflows' must be an integer/],
    [
      'a value out of range',
      'compaction:\n  triggerRatio: 1.5\n',
      {},
      /'compaction\.triggerRatio' must be a number ≥ 0\.05 and ≤ 1/,
    ],
    ['a bad enum value', 'compaction:\n  policy: newest\n', {}, /'compaction\.policy' must be one of auto, turns/],
    [
      'a trigger at or below the fold target a new conversation folds to',
      'compaction:\n  triggerRatio: 0.2\n',
      {},
      /compaction: triggerRatio \(0\.2\) must be above plan\.targetRatio \(0\.25\)/,
    ],
    [
      'an unknown archive driver',
      'archive:\n  driver: mysql\n',
      {},
      /'archive\.driver' must be one of sqlite, postgres/,
    ],
    ['a bad ARCHIVE_DRIVER', '', { ARCHIVE_DRIVER: 'files' }, /ARCHIVE_DRIVER \(archive\.driver\) must be one of/],
    ['a negative retention', 'retention:\n  closedDays: -1\n', {}, /'retention\.closedDays' must be a number ≥ 0/],
    ['a section that is not a mapping', 'worker: 5\n', {}, /'worker' must be a mapping/],
    ['invalid YAML', 'worker: [\n', {}, /not valid YAML/],
    [
      'a bad environment value',
      '',
      { DEV_SERVER_PORT: 'http' },
      /DEV_SERVER_PORT \(devServer\.port\) must be an integer/,
    ],
    ['a bad boolean in the environment', '', { TEMPORAL_TLS: 'maybe' }, /TEMPORAL_TLS .* must be a boolean/],
  ];
  for (const [what, yaml, env, message] of rejects) {
    it(`rejects ${what}, naming the key`, () => {
      const path = file(`${what.replace(/\W+/g, '-')}.yaml`, yaml);
      assert.throws(
        () => loadConfig(path, env),
        (err: unknown) => err instanceof ConfigError && message.test(err.message)
      );
    });
  }

  it('accepts a trigger under the core target that a new conversation folds under (0.25)', () => {
    // The worker gives new conversations the 0.25 target, so a 0.4 trigger starts conversations; the file must load.
    const config = loadConfig(file('trigger-0.4.yaml', 'compaction:\n  triggerRatio: 0.4\n'), {});
    assert.equal(config.compaction.triggerRatio, 0.4);
  });

  it('fails when DC_CONFIG names a file that does not exist', () => {
    assert.throws(() => loadConfig(join(dir, 'nope.yaml'), { DC_CONFIG: join(dir, 'nope.yaml') }), /does not exist/);
  });
});

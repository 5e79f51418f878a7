import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ArchiveConfigError } from '../../src/archive/archive';
import { archiveCipher, openArchive, openArchiveReader, sqliteArchivePath } from '../../src/archive/open-archive';
import { loadConfig } from '../../src/config/load-config';
import { spawnWorkerEntry } from '../support/npm-worker';
import { testDatabaseUrl } from '../support/postgres';

const root = resolve(__dirname, '..', '..');

/** Runs the worker entry point with `env`; resolves with its exit code and output once it exits. */
function runWorkerProcess(
  env: Record<string, string>
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawnWorkerEntry(env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((r) => child.once('exit', (code) => r({ code, stderr, stdout })));
}

describe('opening the configured archive', function () {
  this.timeout(60_000);

  it('opens the SQLite file in the data folder by default, or at archive.path', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dc-open-'));
    const config = loadConfig(join(dataDir, 'none.yaml'), { DATA_DIR: dataDir });
    assert.equal(sqliteArchivePath(config), join(dataDir, 'archive.sqlite'));
    const archive = await openArchive(config);
    assert.equal(archive.driver, 'sqlite');
    await archive.close();
    const elsewhere = join(dataDir, 'other', 'a.sqlite');
    assert.equal(sqliteArchivePath(loadConfig(join(dataDir, 'none.yaml'), { ARCHIVE_PATH: elsewhere })), elsewhere);
  });

  it('opens PostgreSQL from DATABASE_URL, and refuses the postgres driver without a URL', async () => {
    const env = { ARCHIVE_DRIVER: 'postgres', DATABASE_URL: testDatabaseUrl() };
    const archive = await openArchive(loadConfig(join(root, 'no-such.yaml'), env));
    assert.equal(archive.driver, 'postgres');
    await archive.close();
    await assert.rejects(
      openArchive(loadConfig(join(root, 'no-such.yaml'), { ARCHIVE_DRIVER: 'postgres' })),
      (err: Error) =>
        err instanceof ArchiveConfigError && /no URL is set \(archive\.url or DATABASE_URL\)/.test(err.message)
    );
  });

  it('opens the same archive read-only for a client: reads work, writes are refused, nothing is created', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dc-reader-'));
    const sqlite = loadConfig(join(dataDir, 'none.yaml'), { DATA_DIR: dataDir });
    await assert.rejects(openArchiveReader(sqlite), (err: Error) => err instanceof ArchiveConfigError);
    const postgres = loadConfig(join(root, 'no-such.yaml'), {
      ARCHIVE_DRIVER: 'postgres',
      DATABASE_URL: testDatabaseUrl(),
    });
    for (const config of [sqlite, postgres]) {
      const key = `conversation-reader-${process.pid}-${config.archive.driver}`;
      const writer = await openArchive(config);
      await writer.append(key, 0, [{ role: 'user', content: 'stored by the worker' }]);
      const reader = await openArchiveReader(config);
      try {
        assert.deepEqual(
          (await reader.readRange(key, 0, 0)).map((a) => a.message),
          [{ role: 'user', content: 'stored by the worker' }]
        );
        await assert.rejects(reader.append(key, 1, [{ role: 'user', content: 'not by a reader' }]), /read.?only/i);
        assert.equal((await writer.summary(key)).messages, 1, `${config.archive.driver}: nothing written`);
      } finally {
        await reader.close();
        await writer.close();
      }
    }
  });

  it('a worker given wrong credentials stops at start with one clear line and no password', async () => {
    const url = new URL(testDatabaseUrl());
    url.password = 'wrong-secret';
    const { code, stderr, stdout } = await runWorkerProcess({
      ARCHIVE_DRIVER: 'postgres',
      DATABASE_URL: url.toString(),
      // Nothing else may start: no dev server on this port should ever be needed.
      DEV_SERVER_PORT: '1',
    });
    assert.equal(code, 1);
    assert.equal(stdout, '');
    const lines = stderr.trim().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.match(
      lines[0]!,
      /^archive error: cannot open the PostgreSQL archive at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/dc_test: password authentication failed for user "postgres"$/
    );
    assert.ok(!stderr.includes('wrong-secret'));
  });

  it('a worker with the postgres driver and no URL stops at start saying so', async () => {
    const { code, stderr } = await runWorkerProcess({ ARCHIVE_DRIVER: 'postgres', DATABASE_URL: '' });
    assert.equal(code, 1);
    assert.equal(
      stderr.trim(),
      'archive error: archive.driver is postgres but no URL is set (archive.url or DATABASE_URL)'
    );
  });
});

describe('opening the configured archive with encryption at rest', function () {
  this.timeout(60_000);
  const key = `k1:${Buffer.alloc(32, 7).toString('base64')}`;

  it('stops with one clear line, naming the variable or key id and never a key, when the keys are wrong', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dc-open-enc-'));
    const config = (env: Record<string, string>) =>
      loadConfig(join(dataDir, 'none.yaml'), { DATA_DIR: dataDir, ARCHIVE_ENCRYPT: 'true', ...env });
    const cases: [Record<string, string>, Record<string, string>, RegExp][] = [
      [{}, {}, /^archive\.encrypt is on but the environment variable DC_CODEC_KEYS holds no keys$/],
      [{}, { DC_CODEC_KEYS: 'k1:c2hvcnQ=' }, /^DC_CODEC_KEYS: entry 1: key 'k1' must be 32 bytes in base64/],
      [
        { DC_CODEC_KEY_ID: 'k9' },
        { DC_CODEC_KEYS: key },
        /^codec\.keyId 'k9' is not among the keys in DC_CODEC_KEYS \(k1\)$/,
      ],
    ];
    for (const [settings, env, message] of cases) {
      assert.throws(
        () => archiveCipher(config(settings), env),
        (err: Error) => err instanceof ArchiveConfigError && message.test(err.message) && !err.message.includes(key)
      );
    }
    assert.equal(archiveCipher(config({}), { DC_CODEC_KEYS: key })?.keyId, 'k1');
    assert.equal(archiveCipher(loadConfig(join(dataDir, 'none.yaml'), {}), {}), undefined, 'off by default');
  });

  it('a worker with archive.encrypt and no keys stops at start saying so', async () => {
    const { code, stderr } = await runWorkerProcess({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'dc-open-enc-')),
      ARCHIVE_ENCRYPT: 'true',
      DC_CODEC_KEYS: '',
      DEV_SERVER_PORT: '1',
    });
    assert.equal(code, 1);
    assert.equal(
      stderr.trim(),
      'archive error: archive.encrypt is on but the environment variable DC_CODEC_KEYS holds no keys'
    );
  });
});

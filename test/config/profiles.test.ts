import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load-config';
import { profilesFromConfig } from '../../src/config/profiles';

const dir = mkdtempSync(join(tmpdir(), 'dc-profiles-'));
function load(text: string, env: Record<string, string> = {}) {
  const path = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return loadConfig(path, env);
}

describe('summarizer profiles in temporal.yaml', () => {
  it("serves 'default' from the summarizer section and each named profile, filled with the section's defaults", () => {
    const config = load(
      [
        'summarizer:',
        '  mode: chat',
        '  maxOutputTokens: 2000',
        'summarizerProfiles:',
        '  local-vllm:',
        '    mode: chat',
        '    baseURL: http://vllm.internal:8000/v1',
        '    apiKeyFile: /run/secrets/vllm',
        '  offline: { mode: extractive }',
      ].join('\n'),
      { OPENAI_BASE_URL: 'https://gateway.internal/v1' }
    );
    const set = profilesFromConfig(config);
    assert.equal(set.defaultProfile, 'default');
    assert.deepEqual([...set.profiles.keys()], ['default', 'local-vllm', 'offline']);
    assert.deepEqual(set.profiles.get('default'), {
      mode: 'chat',
      model: 'gpt-4o-mini',
      baseURL: 'https://gateway.internal/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
      timeoutMs: 120000,
      outputTokensCap: 2000,
    });
    assert.deepEqual(set.profiles.get('local-vllm'), {
      mode: 'chat',
      model: 'gpt-4o-mini',
      baseURL: 'http://vllm.internal:8000/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
      apiKeyFile: '/run/secrets/vllm',
      timeoutMs: 120000,
    });
    assert.equal(set.profiles.get('offline')?.mode, 'extractive');
  });

  it('SUMMARIZER_PROFILE picks the profile of conversations that name none', () => {
    const config = load('summarizerProfiles:\n  cheap: { mode: chat }\n', { SUMMARIZER_PROFILE: 'cheap' });
    assert.equal(profilesFromConfig(config).defaultProfile, 'cheap');
  });

  const rejects: [string, string, RegExp][] = [
    ['a profile that is not a mapping', 'summarizerProfiles:\n  a: 3\n', /'summarizerProfiles\.a' must be a mapping/],
    ['an unknown key', 'summarizerProfiles:\n  a: { apiKey: sk-1 }\n', /'summarizerProfiles\.a': unknown key 'apiKey'/],
    ['a bad mode', 'summarizerProfiles:\n  a: { mode: magic }\n', /'summarizerProfiles\.a'\.mode must be one of/],
    ['a bad name', 'summarizerProfiles:\n  "a b": { mode: chat }\n', /profile name is letters, digits/],
    ['__proto__ as a name', 'summarizerProfiles:\n  __proto__: { mode: chat }\n', /profile name is letters/],
    ["'default' redefined", 'summarizerProfiles:\n  default: { mode: chat }\n', /is the 'summarizer:' section/],
  ];
  for (const [what, text, message] of rejects) {
    it(`stops the worker on ${what}, naming the key`, () => {
      assert.throws(
        () => load(text),
        (e: unknown) => e instanceof ConfigError && message.test(e.message)
      );
    });
  }

  for (const url of ['file:///etc/passwd', 'not a url', 'gopher://x']) {
    it(`rejects the base URL ${url}`, () => {
      const config = load(`summarizerProfiles:\n  a: { mode: chat, baseURL: '${url}' }\n`);
      assert.throws(
        () => profilesFromConfig(config),
        (e: unknown) => e instanceof ConfigError && /profile 'a': baseURL must be an http\(s\) URL/.test(e.message)
      );
    });
  }

  it('rejects a default profile that does not exist', () => {
    const config = load('summarizer:\n  profile: missing\n');
    assert.throws(() => profilesFromConfig(config), /summarizer\.profile names 'missing', which is not a profile/);
  });
});

describe("docs/summarizers.md's profile example", () => {
  it('loads as written and serves the profiles it describes', () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'summarizers.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Summarizer profiles'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(yaml, 'a yaml block in the profiles section');
    const set = profilesFromConfig(load(yaml));
    assert.deepEqual([...set.profiles.keys()], ['default', 'offline', 'local-vllm']);
    assert.equal(set.profiles.get('local-vllm')?.apiKeyFile, '/run/secrets/vllm-key');
    assert.equal(set.profiles.get('local-vllm')?.outputTokensCap, 4000);
    assert.equal(set.profiles.get('default')?.mode, 'chat');
  });
});

// temporal.yaml's compaction: and summarizer: sections (and their environment variables) are the defaults of new
// conversations: the real worker process (src/worker.ts) is started with non-default values and they are applied.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { conversationDefaultsFromConfig } from '../../src/config/conversation-defaults';
import { loadConfig } from '../../src/config/load-config';
import { configurationTableRows } from '../../src/config/configuration-table';
import { schema } from '../../src/config/schema';
import { conversationClient, uniqueConversationId } from '../support/conversation';
import { startNpmWorker } from '../support/npm-worker';
import { startOpenAIServer } from '../support/openai-server';
import { sharedTestEnv } from '../support/temporal';

const root = resolve(__dirname, '..', '..');

describe('config: compaction defaults and the summarizer profile of new conversations', function () {
  this.timeout(180_000);

  it('maps every compaction key to a setting', () => {
    const config = loadConfig('/nonexistent.yaml', { COMPACTION_BUDGET: '64000', COMPACTION_MODEL: 'gpt-4.1' });
    const patch = conversationDefaultsFromConfig(config);
    assert.equal(patch.budget, 64000);
    assert.equal(patch.model, 'gpt-4.1');
    assert.deepEqual(Object.keys(patch).sort(), Object.keys(config.compaction).sort());
  });

  it('a worker started with non-default values applies them to new conversations; explicit settings win', async () => {
    const env = await sharedTestEnv();
    const server = await startOpenAIServer({ fallback: () => ({ kind: 'text', text: 'A short summary.' }) });
    const dir = mkdtempSync(join(tmpdir(), 'dc-config-'));
    const file = join(dir, 'temporal.yaml');
    writeFileSync(file, 'compaction:\n  triggerRatio: 0.8\n  policy: rounds\nsummarizer:\n  timeoutMs: 30000\n');
    const taskQueue = `config-defaults-${process.pid}`;
    const { child: worker } = await startNpmWorker(
      {
        DC_CONFIG: file,
        TEMPORAL_ADDRESS: env.address,
        TEMPORAL_TASK_QUEUE: taskQueue,
        DATA_DIR: dir,
        COMPACTION_BUDGET: '64000',
        COMPACTION_MODEL: 'gpt-4.1',
        // The summarizer section is the default profile: a model summarizer on the test server.
        SUMMARIZER_MODE: 'chat',
        SUMMARIZER_MODEL: 'model-from-the-environment',
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_API_KEY: 'sk-config-test',
      },
      90_000
    );
    try {
      const plain = conversationClient(env.client, taskQueue, uniqueConversationId('configured'));
      await plain.prepare([{ role: 'user', content: 'hello' }]);
      const s = (await plain.state()).settings;
      assert.equal(s.budget, 64000, 'COMPACTION_BUDGET');
      assert.equal(s.model, 'gpt-4.1', 'COMPACTION_MODEL');
      assert.equal(s.triggerRatio, 0.8, 'compaction.triggerRatio from the file');
      assert.equal(s.policy, 'rounds', 'compaction.policy from the file');

      const explicit = conversationClient(env.client, taskQueue, uniqueConversationId('explicit'), {
        settings: { budget: 2000, policy: 'auto', foldMode: 'blocking' },
      });
      let folded = false;
      for (let i = 0; i < 30 && !folded; i++) {
        const turn = await explicit.prepare([{ role: 'user', content: `turn ${i}: ${'some words here '.repeat(20)}` }]);
        folded = turn.fold !== undefined;
        await explicit.record({ role: 'assistant', content: `answer ${i}` });
      }
      const e = (await explicit.state()).settings;
      assert.equal(e.budget, 2000, 'the conversation’s own budget wins');
      assert.equal(e.triggerRatio, 0.8, 'what it does not set still comes from the configuration');
      assert.ok(folded, 'a fold happened');
      const models = server.requests.map((r) => r.body?.model);
      assert.ok(models.includes('model-from-the-environment'), `SUMMARIZER_MODE/MODEL applied: ${String(models)}`);
    } finally {
      worker.kill('SIGTERM');
      await new Promise((ok) => worker.once('exit', ok));
      await server.close();
    }
  });
});

describe('config: the configuration table of docs/configuration.md is the schema', () => {
  it('has exactly the rows generated from the schema (every section, key, default and environment variable)', () => {
    const doc = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## temporal.yaml'), doc.indexOf('## Per-conversation settings'));
    const cells = (line: string): string[] =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim().replace(/\s+/g, ' '));
    const rows = section
      .split('\n')
      .filter((line) => /^\| `\w+`/.test(line))
      .map(cells);
    assert.deepEqual(rows, configurationTableRows());
    for (const [name, keys] of Object.entries(schema)) {
      for (const key of Object.keys(keys))
        assert.ok(rows.some((r) => r[0] === `\`${name}\`` && r[1].includes(`\`${key}\``)));
    }
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.ok(readme.includes('(docs/configuration.md)'), 'the README links to the configuration table');
  });
});

import assert from 'node:assert/strict';
import { collectIdentifiers } from '../../src/core/fold/identifiers';
import { normalize } from '../../src/core/messages/normalize';
import { SUMMARY_MARKER } from '../../src/core/messages/summary-marker';
import { createSummarizer } from '../../src/summarizers';
import { buildDigest } from '../../src/summarizers/extractive/digest';
import { testCounter, testCounterFor } from '../support/test-counter';

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

const session: unknown[] = [
  { role: 'user', content: `${SUMMARY_MARKER}]\nEarlier we set up the repo at /srv/app and chose Postgres.` },
  { role: 'user', content: 'First request: add a health endpoint to src/server/routes.ts' },
  { role: 'assistant', content: null, tool_calls: [call('c1', 'Read', { file_path: 'src/server/routes.ts' })] },
  { role: 'tool', tool_call_id: 'c1', content: 'export const routes = []' },
  { role: 'assistant', content: 'Decided to mount the endpoint at /healthz and keep it unauthenticated.' },
  { role: 'assistant', content: null, tool_calls: [call('c2', 'Bash', { command: 'npm test -- health' })] },
  { role: 'tool', tool_call_id: 'c2', content: 'Exit code 1\nTypeError: routes.push is not a function' },
  { role: 'assistant', content: null, tool_calls: [call('c3', 'Read', { file_path: 'src/server/routes.ts' })] },
  { role: 'tool', tool_call_id: 'c3', content: 'export const routes = []' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      call('c4', 'TodoWrite', {
        todos: [
          { content: 'add /healthz route', status: 'completed' },
          { content: 'document the endpoint in README.md', status: 'pending' },
        ],
      }),
    ],
  },
  { role: 'tool', tool_call_id: 'c4', content: 'ok' },
  { role: 'user', content: 'Second request: also add `readinessProbe` support, ticket OPS-7.' },
  { role: 'assistant', content: null, tool_calls: [call('c5', 'Bash', { command: 'kubectl get pods' })] },
];

const count = (s: string): number => testCounter.countText(s);

describe('summarizers/extractive', () => {
  const t = normalize(session, 'chat');
  const digest = buildDigest(t.items, { maxTokens: 2000, count });

  it('keeps the user requests verbatim, newest first', () => {
    const second = digest.indexOf('Second request: also add `readinessProbe` support, ticket OPS-7.');
    const first = digest.indexOf('First request: add a health endpoint to src/server/routes.ts');
    assert.ok(second > 0 && first > second, digest);
  });

  it('carries the previous summary over instead of stacking it', () => {
    assert.ok(digest.includes('Earlier we set up the repo at /srv/app and chose Postgres.'));
    assert.ok(!digest.includes(SUMMARY_MARKER));
  });

  it('lists decisions, one line per distinct tool action, errors and open items', () => {
    assert.ok(digest.includes('Decided to mount the endpoint at /healthz'));
    assert.match(digest, /^- Read: src\/server\/routes\.ts \(×2\)$/m);
    assert.match(digest, /^- Bash: npm test -- health$/m);
    assert.match(digest, /Errors seen:\n- Bash: Exit code 1 — TypeError: routes\.push is not a function/);
    assert.match(digest, /pending call: Bash\(kubectl get pods\)/);
    assert.match(digest, /unfinished \(pending\): document the endpoint in README\.md/);
    assert.ok(!digest.includes('unfinished (completed)'));
  });

  it('is deterministic', () => {
    assert.equal(buildDigest(t.items, { maxTokens: 2000, count }), digest);
  });

  it('stays within its cap, giving up old actions before the user requests', () => {
    for (const cap of [60, 120, 250]) {
      const small = buildDigest(t.items, { maxTokens: cap, count });
      assert.ok(count(small) <= cap + 10, `cap ${cap}: ${count(small)} tokens`);
      assert.ok(small.includes('Second request'), `cap ${cap} keeps the newest request`);
    }
  });

  it('runs as a summarizer with no network and no key, and the ledger completes it', async () => {
    const s = createSummarizer({}, { counterFor: testCounterFor, env: {} });
    const res = await s({ format: 'chat', messages: session, budget: 20_000, model: 'm', foldedTokens: 2000 });
    assert.ok(res.ok);
    assert.equal(res.mode, 'extractive');
    assert.deepEqual(res.outputTypes, ['extractive']);
    assert.equal(res.usage, undefined);
    const ids = collectIdentifiers(t.items);
    for (const id of ids) assert.ok(res.text?.includes(id.value), `missing ${id.value}`);
    assert.equal(res.retention.kept, ids.length);
  });

  it('rebuilds once at half the cap when not smaller, then fails unfolded', async () => {
    const s = createSummarizer({ extractive: { maxTokens: 2000 } }, { counterFor: testCounterFor });
    const res = await s({ format: 'chat', messages: session, budget: 20_000, model: 'm', foldedTokens: 5 });
    assert.equal(res.ok, false);
    if (!res.ok) {
      assert.equal(res.kind, 'too_large');
      assert.equal(res.attempts, 2);
    }
  });

  it('works on the S0 and Responses formats', async () => {
    const s = createSummarizer({}, { counterFor: testCounterFor });
    const s0 = await s({
      format: 's0',
      messages: [
        { id: 'm1', type: 'user', text: 'Cancel order #W2378156' },
        { id: 'm2', type: 'bot', text: 'Cancelled #W2378156.' },
      ],
      budget: 10_000,
      model: 'm',
      foldedTokens: 500,
    });
    assert.ok(s0.ok && s0.text?.includes('Cancel order #W2378156'));
    const rs = await s({
      format: 'responses',
      messages: [{ type: 'message', role: 'user', content: 'Look up reservation ZFA04Y' }],
      budget: 10_000,
      model: 'm',
      foldedTokens: 500,
    });
    assert.ok(rs.ok && rs.text?.includes('ZFA04Y'));
  });
});

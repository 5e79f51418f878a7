import assert from 'node:assert/strict';
import { collectIdentifiers } from '../../src/core/fold/identifiers';
import { normalize } from '../../src/core/messages/normalize';
import { SUMMARY_MARKER } from '../../src/core/messages/summary-marker';
import { createSummarizer } from '../../src/summarizers';
import { buildDigest } from '../../src/summarizers/extractive/digest';
import { testCounter, testCounterFor } from '../support/test-counter';
import { SUMMARY_WRAP_TOKENS } from '../../src/summarizers/limits';

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
  const seqs = session.map((_, i) => i);
  const digest = buildDigest(t.items, { maxTokens: 2000, count, seqs });

  it('keeps the task verbatim, and later requests in the ledger with their message number', () => {
    assert.match(digest, /^> First request: add a health endpoint to src\/server\/routes\.ts$/m);
    assert.ok(digest.includes('- [#11] Second request: also add `readinessProbe` support, ticket OPS-7.'), digest);
  });

  it('carries the previous summary over instead of stacking it', () => {
    assert.ok(digest.includes('Earlier we set up the repo at /srv/app and chose Postgres.'));
    assert.ok(!digest.includes(SUMMARY_MARKER));
  });

  it('lists decisions, goals from the latest task list, unresolved errors, and one line per distinct action', () => {
    assert.match(
      digest,
      /Decisions:\n- \[#4\] Decided to mount the endpoint at \/healthz and keep it unauthenticated\./
    );
    assert.match(digest, /^- Read: src\/server\/routes\.ts \(×2\)$/m);
    assert.match(digest, /^- Bash: npm test -- health$/m);
    assert.match(
      digest,
      /Errors not yet resolved:\n- \[#6\] Bash\(npm test -- health\) → Exit code 1 — TypeError: routes\.push/
    );
    assert.match(digest, /^- \[#9, done\] add \/healthz route$/m);
    assert.match(digest, /^- \[#9, next\] document the endpoint in README\.md$/m);
  });

  it('drops an error that a later clean run of the same call resolved', () => {
    const fixed = [
      ...session.slice(0, 12),
      { role: 'assistant', content: null, tool_calls: [call('c6', 'Bash', { command: 'npm test -- health' })] },
      { role: 'tool', tool_call_id: 'c6', content: '3 passing' },
    ];
    const d = buildDigest(normalize(fixed, 'chat').items, { maxTokens: 2000, count });
    assert.ok(!d.includes('Errors not yet resolved'), d);
  });

  it('is deterministic', () => {
    assert.equal(buildDigest(t.items, { maxTokens: 2000, count, seqs }), digest);
  });

  it('keeps room for what an earlier summary carried of what tools showed, fold after fold', () => {
    const shown = [
      'queue depth on broker-a: 1432 messages',
      'certificate of api.example.org expires 2027-03-14',
      'build 8812 took 14m03s on runner ci-7',
      'disk /var/lib/pg at 91% of 500 GB',
      'replica lag on db-eu-2: 38 s',
      'open file handles of svc-ingest: 65 211',
      'latest schema migration: 0047_add_tenant_id',
      'cron job nightly-export last ran 2026-12-05 02:15 UTC',
    ];
    const busy: unknown[] = [{ role: 'user', content: 'Find which worker node leaks memory.' }];
    shown.forEach((text, k) => {
      busy.push({
        role: 'assistant',
        content: null,
        tool_calls: [call(`m${k}`, 'Bash', { command: `check ${k}` })],
      });
      busy.push({ role: 'tool', tool_call_id: `m${k}`, content: text });
    });
    const first = buildDigest(normalize(busy, 'chat').items, { maxTokens: 2000, count });
    for (const text of shown) assert.ok(first.includes(text), `first fold keeps ${text}:\n${first}`);
    // The next fold takes in the summary (a few hundred tokens) and one new message: its usual size is small.
    const again = [
      { role: 'user', content: `${SUMMARY_MARKER}]\n${first}` },
      { role: 'user', content: 'Also check the scheduler host.' },
    ];
    const second = buildDigest(normalize(again, 'chat').items, { maxTokens: 2000, narrativeTokens: 60, count });
    for (const text of shown) assert.ok(second.includes(text), `second fold keeps ${text}:\n${second}`);
  });

  it('stays within its cap at any size, degrading narrative first, then shortening, never failing', () => {
    const full = buildDigest(t.items, { maxTokens: 2000, count, seqs });
    for (const cap of [20, 60, 120, 250, 400]) {
      const small = buildDigest(t.items, { maxTokens: cap, count, seqs });
      assert.ok(count(small) <= cap, `cap ${cap}: ${count(small)} tokens`);
      assert.ok(small.length > 0, `cap ${cap}: empty`);
      if (count(full) > cap && cap >= 250) {
        // Narrative goes before any ledger entry is shortened: the ledger's entries are still there.
        assert.ok(small.includes('[#11]'), `cap ${cap} keeps the entry pointer:\n${small}`);
      }
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

  it('does not list an identifier only a replaced statement named', async () => {
    const s = createSummarizer({}, { counterFor: testCounterFor, env: {} });
    const messages = [
      { role: 'user', content: 'Keep the status page in sync with the outage.' },
      { role: 'user', content: 'The outage ticket is OPS-4410.' },
      { role: 'assistant', content: 'Understood, I will post updates against it.' },
      {
        role: 'user',
        content: 'Change of plan: the outage ticket is now OPS-4502, the old one was closed as a duplicate.',
      },
      { role: 'assistant', content: 'Noted, all updates go against the new ticket from now on.' },
    ];
    const res = await s({ format: 'chat', messages, budget: 20_000, model: 'm', foldedTokens: 2000 });
    assert.ok(res.ok);
    assert.ok(res.text?.includes('OPS-4502'), res.text);
    assert.ok(!res.text?.includes('OPS-4410'), res.text);
  });

  it('fits a head of a few tokens, and fails unfolded only when nothing fits', async () => {
    const s = createSummarizer({ extractive: { maxTokens: 2000 } }, { counterFor: testCounterFor });
    const small = await s({ format: 'chat', messages: session, budget: 20_000, model: 'm', foldedTokens: 12 });
    assert.ok(small.ok && small.summaryTokens < 12, JSON.stringify(small));
    const none = await s({ format: 'chat', messages: session, budget: 20_000, model: 'm', foldedTokens: 1 });
    assert.equal(none.ok, false);
    if (!none.ok) assert.equal(none.attempts, 2);
  });

  it('works on the typed and Responses formats', async () => {
    const s = createSummarizer({}, { counterFor: testCounterFor });
    const s0 = await s({
      format: 'typed',
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

  it('fits what the budget leaves beside the kept part, going past it only for the task and the rules', async () => {
    const s = createSummarizer({}, { counterFor: testCounterFor });
    const request = { format: 'chat' as const, messages: session, budget: 1000, model: 'm', foldedTokens: 2000 };
    const free = await s(request);
    assert.ok(free.ok);
    const room = Math.floor(free.summaryTokens * 0.7);
    // budgetRoom: budget − kept − the summary message's own wrapping.
    const fitted = await s({ ...request, keptTokens: 1000 - SUMMARY_WRAP_TOKENS - room });
    assert.ok(fitted.ok);
    assert.ok(fitted.summaryTokens <= room, `${fitted.summaryTokens} tokens for a room of ${room}`);
    assert.match(fitted.text!, /First request: add a health endpoint/);
    const none = await s({ ...request, keptTokens: 1000 });
    assert.ok(none.ok, 'no room left: the task is kept anyway, and the fold record will say the context is over');
    assert.match(none.text!, /First request: add a health endpoint/);
    assert.ok(none.summaryTokens < free.summaryTokens, `${none.summaryTokens} vs ${free.summaryTokens}`);
  });
});

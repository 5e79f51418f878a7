import assert from 'node:assert/strict';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { DefaultLogger } from '@temporalio/worker';
import type { SummarizeHeartbeat, SummarizeInput, SummarizeOutput } from '../../src/activities/summarize';
import { createSummarizeActivity } from '../../src/activities/summarize';
import { useOpenAIServer } from '../support/openai-server';
import { TEST_KEY, chatHead } from '../summarizers/helpers';
import { testProfiles } from '../support/profiles';

const input = (summarizer: SummarizeInput['summarizer'] = {}): SummarizeInput => ({
  format: 'chat',
  messages: chatHead,
  budget: 4000,
  model: 'gpt-4o',
  foldedTokens: 600,
  summarizer,
});

// The mock environment logs every failed activity; these failures are the point of the tests.
const quiet = { logger: new DefaultLogger('ERROR') };
const mockEnv = (): MockActivityEnvironment => new MockActivityEnvironment(undefined, quiet);
const run = (
  env: MockActivityEnvironment,
  fn: (i: SummarizeInput) => Promise<SummarizeOutput>,
  i: SummarizeInput
): Promise<SummarizeOutput> => env.run<[SummarizeInput], SummarizeOutput, typeof fn>(fn, i);

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the activity to fail');
}

describe('activities/summarize', () => {
  const server = useOpenAIServer();

  const chat = { profile: 'chat' };
  const profiles = () =>
    testProfiles(server.baseURL, {
      chat: { mode: 'chat', baseURL: server.baseURL },
      capped: { mode: 'chat', baseURL: server.baseURL, outputTokensCap: 300 },
    });
  const activity = (heartbeatMs = 5000) =>
    createSummarizeActivity({ env: { OPENAI_API_KEY: TEST_KEY }, heartbeatMs, profiles: profiles() });

  it('folds offline by default (extractive) with the real token counter', async () => {
    const env = mockEnv();
    const res = await run(env, createSummarizeActivity({ env: {} }), input(undefined));
    assert.ok(res.ok);
    assert.equal(res.mode, 'extractive');
    assert.ok(res.text?.includes('Please fix the crash in src/server/handler.ts (ticket OPS-42).'));
    assert.ok(res.summaryTokens > 0 && res.summaryTokens < 600);
    assert.equal(server.requests.length, 0);
  });

  it('carries no secret in its input or result', async () => {
    server.script({ kind: 'text', text: 'Fixed the handler.' });
    const env = mockEnv();
    const i = input(chat);
    const res = await run(env, activity(), i);
    assert.ok(res.ok);
    assert.ok(!JSON.stringify(i).includes(TEST_KEY));
    assert.ok(!JSON.stringify(res).includes(TEST_KEY));
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${TEST_KEY}`);
  });

  it('heartbeats with "summarizing since T" while the model call is in flight', async () => {
    server.script({ kind: 'slow', ms: 400 });
    const env = mockEnv();
    const beats: SummarizeHeartbeat[] = [];
    env.on('heartbeat', (d: SummarizeHeartbeat) => beats.push(d));
    const res = await run(env, activity(10), input(chat));
    assert.ok(res.ok);
    const during = beats.filter((b) => b?.phase === 'summarizing');
    assert.ok(during.length >= 2, `${during.length} heartbeats`);
    assert.equal(during[0]?.mode, 'chat');
    assert.equal(during[0]?.attempt, 1);
    assert.equal(typeof during[0]?.since, 'number');
  });

  it('aborts the request and reports cancellation when the activity is cancelled', async () => {
    server.script({ kind: 'slow', ms: 30_000 });
    const env = mockEnv();
    const running = run(env, activity(10), input(chat));
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    env.cancel();
    const e = await failure(running);
    assert.ok(e instanceof CancelledFailure, String(e));
  });

  it('a 429 becomes a retryable ApplicationFailure with nextRetryDelay from retry-after', async () => {
    server.script({ kind: 'status', status: 429, headers: { 'retry-after': '3' } });
    const env = mockEnv();
    const e = await failure(run(env, activity(), input(chat)));
    assert.ok(e instanceof ApplicationFailure);
    assert.equal(e.type, 'RateLimited');
    assert.equal(e.nonRetryable, false);
    assert.equal(e.nextRetryDelay, 3000);
  });

  it('a 401 becomes a non-retryable ApplicationFailure naming the cause, without the key', async () => {
    server.script({ kind: 'status', status: 401, message: `Incorrect API key provided: ${TEST_KEY}` });
    const env = mockEnv();
    const e = await failure(run(env, activity(), input(chat)));
    assert.ok(e instanceof ApplicationFailure);
    assert.equal(e.type, 'Unauthorized');
    assert.equal(e.nonRetryable, true);
    assert.match(e.message, /401/);
    assert.ok(!e.message.includes(TEST_KEY));
    assert.ok(!JSON.stringify(e.details).includes(TEST_KEY));
  });

  it('a 500 and a dropped connection are retryable', async () => {
    server.script({ kind: 'status', status: 500 }, { kind: 'drop' });
    const env = mockEnv();
    for (const type of ['ServerError', 'ConnectionError']) {
      const e = await failure(run(env, activity(), input(chat)));
      assert.ok(e instanceof ApplicationFailure);
      assert.equal(e.type, type);
      assert.equal(e.nonRetryable, false);
    }
  });

  it('a missing key and a malformed head are non-retryable', async () => {
    const env = mockEnv();
    const noKey = await failure(run(env, createSummarizeActivity({ env: {}, profiles: profiles() }), input(chat)));
    assert.ok(noKey instanceof ApplicationFailure);
    assert.equal(noKey.nonRetryable, true);
    const bad = await failure(run(env, activity(), { ...input(), messages: [{ content: 'no role' }] }));
    assert.ok(bad instanceof ApplicationFailure);
    assert.equal(bad.nonRetryable, true);
  });

  it('returns the unfolded failure (not an error) when both attempts are rejected', async () => {
    server.script({ kind: 'empty' }, { kind: 'empty' });
    const env = mockEnv();
    const res = await run(env, activity(), input(chat));
    assert.equal(res.ok, false);
    if (!res.ok) assert.equal(res.kind, 'no_text');
  });

  it("uses the chosen profile's endpoint, model and key, whatever else the input carries", async () => {
    server.script({ kind: 'text', text: 'ok' });
    const a = createSummarizeActivity({
      env: { OPENAI_API_KEY: TEST_KEY, OTHER_KEY: 'sk-other-secret-value' },
      profiles: testProfiles(server.baseURL, { p: { mode: 'chat', baseURL: server.baseURL, model: 'profile-model' } }),
    });
    // Endpoint fields forged into the input: ignored (the named profile decides).
    const legacy = {
      profile: 'p',
      mode: 'responses',
      model: 'input-model',
      baseURL: 'http://127.0.0.1:9/v1',
      apiKeyEnv: 'OTHER_KEY',
      apiKeyFile: '/etc/shadow',
    } as SummarizeInput['summarizer'];
    const res = await run(mockEnv(), a, input(legacy));
    assert.ok(res.ok);
    assert.equal(res.mode, 'chat');
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]!.body?.model, 'profile-model');
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${TEST_KEY}`);
  });

  it('applies the harmless tuning: output limit (under the profile cap) and extra instructions', async () => {
    server.script({ kind: 'text', text: 'ok' }, { kind: 'text', text: 'ok' });
    const a = activity();
    await run(mockEnv(), a, input({ profile: 'chat', maxOutputTokens: 200, instructions: 'Keep every ticket id.' }));
    await run(mockEnv(), a, input({ profile: 'capped', maxOutputTokens: 5000 }));
    const [first, second] = server.requests;
    assert.equal(first!.body?.max_tokens, 200);
    assert.match(JSON.stringify(first!.body?.messages), /Additional instructions:\\nKeep every ticket id\./);
    assert.equal(second!.body?.max_tokens, 300, "the profile's cap wins");
  });

  it('an unknown profile is a non-retryable failure naming it and the configured ones', async () => {
    for (const name of ['nope', '__proto__', 'toString']) {
      const e = await failure(run(mockEnv(), activity(), input({ profile: name })));
      assert.ok(e instanceof ApplicationFailure);
      assert.equal(e.type, 'UnknownSummarizerProfile');
      assert.equal(e.nonRetryable, true);
      assert.ok(
        e.message.includes(`'${name}' is not configured on this worker (profiles: default, test-chat, chat, capped)`),
        e.message
      );
    }
    assert.equal(server.requests.length, 0);
  });
});

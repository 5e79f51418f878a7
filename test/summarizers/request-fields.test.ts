/**
 * Request fields a profile sets (seed 002's `WithRequest`, allow-listed): read from temporal.yaml, checked there with
 * errors naming the profile and field, and sent by the real SDK of each mode to our local provider servers.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load-config';
import { profilesFromConfig } from '../../src/config/profiles';
import { createSummarizer, type SummarizerConfig } from '../../src/summarizers';
import { startAnthropicServer } from '../support/anthropic-server';
import { startGeminiServer } from '../support/gemini-server';
import { startOpenAIServer } from '../support/openai-server';
import type { RecordedRequest } from '../support/openai-server';
import { testCounterFor } from '../support/test-counter';
import { chatRequest, TEST_KEY } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'dc-request-fields-'));
function profiles(yaml: string[]) {
  const path = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, ['summarizerProfiles:', ...yaml].join('\n'));
  return profilesFromConfig(loadConfig(path, {}));
}

const env = { OPENAI_API_KEY: TEST_KEY, ANTHROPIC_API_KEY: TEST_KEY, GEMINI_API_KEY: TEST_KEY };

/** One summary call of `config` against a server at `baseURL`. @returns the request the server received. */
async function sent(
  config: SummarizerConfig,
  server: { requests: RecordedRequest[]; close(): Promise<void> },
  baseURL: string
): Promise<RecordedRequest> {
  try {
    const summarize = createSummarizer({ ...config, baseURL }, { counterFor: testCounterFor, env });
    const result = await summarize(chatRequest({ systemPrompt: 'AGENT_SYSTEM' }));
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(server.requests.length, 1);
    return server.requests[0]!;
  } finally {
    await server.close();
  }
}

describe('profile request fields (temperature, top_p, reasoning effort)', function () {
  this.timeout(60_000);
  const set = profiles([
    '  c: { mode: chat, temperature: 0.2, topP: 0.9, reasoningEffort: low }',
    '  r: { mode: responses, temperature: 0, reasoningEffort: high }',
    '  a: { mode: anthropic, temperature: 0.5, topP: 0.8 }',
    '  g: { mode: gemini, temperature: 1.5, topP: 0.95 }',
    '  plain: { mode: chat }',
  ]);

  it('are read into the profile only when set', () => {
    assert.deepEqual(set.profiles.get('c')?.request, { temperature: 0.2, topP: 0.9, reasoningEffort: 'low' });
    assert.deepEqual(set.profiles.get('r')?.request, { temperature: 0, reasoningEffort: 'high' });
    assert.equal(set.profiles.get('plain')?.request, undefined);
    assert.equal(set.profiles.get('default')?.request, undefined);
  });

  it('chat: temperature, top_p and reasoning_effort in the Chat Completions body; none when not set', async () => {
    const reply = { kind: 'text' as const, text: 'The handler crash was fixed.' };
    let server = await startOpenAIServer();
    server.script(reply);
    const body = (await sent(set.profiles.get('c')!, server, server.baseURL)).body!;
    assert.equal(body.temperature, 0.2);
    assert.equal(body.top_p, 0.9);
    assert.equal(body.reasoning_effort, 'low');
    assert.deepEqual((body.messages as { role: string }[])[0], { role: 'system', content: 'AGENT_SYSTEM' });
    server = await startOpenAIServer();
    server.script(reply);
    const plain = (await sent(set.profiles.get('plain')!, server, server.baseURL)).body!;
    for (const key of ['temperature', 'top_p', 'reasoning_effort']) assert.ok(!(key in plain), key);
  });

  it('responses: temperature and reasoning.effort in the Responses body', async () => {
    const server = await startOpenAIServer();
    server.script({ kind: 'text', text: 'The handler crash was fixed.' });
    const body = (await sent(set.profiles.get('r')!, server, server.baseURL)).body!;
    assert.equal(body.temperature, 0);
    assert.deepEqual(body.reasoning, { effort: 'high' });
    assert.ok(!('top_p' in body));
    assert.equal(body.instructions, 'AGENT_SYSTEM');
  });

  it('anthropic: temperature and top_p in the Messages body', async () => {
    const server = await startAnthropicServer();
    server.script({ kind: 'text', text: 'The handler crash was fixed.' });
    const body = (await sent(set.profiles.get('a')!, server, server.origin)).body!;
    assert.equal(body.temperature, 0.5);
    assert.equal(body.top_p, 0.8);
    assert.equal(body.system, 'AGENT_SYSTEM');
  });

  it('gemini: temperature and topP in generationConfig', async () => {
    const server = await startGeminiServer();
    server.script({ kind: 'text', text: 'The handler crash was fixed.' });
    const body = (await sent(set.profiles.get('g')!, server, server.origin)).body!;
    const generation = body.generationConfig as Record<string, unknown>;
    assert.equal(generation.temperature, 1.5);
    assert.equal(generation.topP, 0.95);
  });

  it('refuses a field the mode does not send, or a value out of range, naming the profile and field', () => {
    const refused: [string, RegExp][] = [
      [
        '  x: { mode: anthropic, reasoningEffort: low }',
        /profile 'x': reasoningEffort is not sent by mode anthropic \(only by chat, responses\)/,
      ],
      ['  x: { mode: compact, topP: 0.5 }', /profile 'x': topP is not sent by mode compact/],
      ['  x: { mode: extractive, temperature: 0.5 }', /profile 'x': temperature is not sent by mode extractive/],
      [
        '  x: { mode: anthropic, temperature: 1.5 }',
        /profile 'x': temperature must be ≤ 1 for mode anthropic, got 1.5/,
      ],
      [
        '  x: { mode: chat, temperature: 2.5 }',
        /summarizerProfiles\.x'?\.temperature.* must be a number ≥ 0 and ≤ 2, got 2.5/,
      ],
      ['  x: { mode: chat, topP: -0.5 }', /summarizerProfiles\.x'?\.topP.* must be a number ≥ 0 and ≤ 1, got -0.5/],
      [
        '  x: { mode: chat, reasoningEffort: extreme }',
        /reasoningEffort.* must be one of , minimal, low, medium, high/,
      ],
    ];
    for (const [line, why] of refused) {
      assert.throws(
        () => profiles([line]),
        (err: Error) => err instanceof ConfigError && why.test(err.message),
        line
      );
    }
  });
});

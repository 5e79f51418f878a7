/**
 * The bad-input catalogue: hostile and malformed input through every entry point (updates, the signal, the start
 * argument, the client, the CLI, temporal.yaml, the environment). Each case must get a clear error of a documented
 * type, change nothing stored, fail no workflow task, and leave the conversation answering.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  WithStartWorkflowOperation,
  WorkflowFailedError,
  WorkflowNotFoundError,
  QueryNotRegisteredError,
  WorkflowUpdateFailedError,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { main } from '../../src/cli/main';
import { ConversationClient, InvalidConversationId, InvalidWriterId } from '../../src/client/conversation-client';
import { ConversationUpdateError } from '../../src/client/errors';
import { ConfigError, loadConfig } from '../../src/config/load-config';
import * as definitions from '../../src/contract/definitions';
import * as compactNow from '../../src/contract/compact-now';
import { FAILURE_TYPES } from '../../src/contract/failures';
import { defaultLimits, defaultSettings, SettingsError } from '../../src/contract/settings';
import { SUMMARY_MARKER } from '../../src/core/messages/summary-marker';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { workflowTaskFailures } from '../support/history';

const user = (text: string) => ({ role: 'user', content: text });
const call = (id: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: '{}' } }],
});

/** Nested arrays `depth` levels deep, built without recursion. */
function nested(depth: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

type UpdateCase = [what: string, update: string, arg: unknown, type: string, message: RegExp];

const updateCases: UpdateCase[] = [
  ['input null', 'prepare', null, 'InvalidAppend', /must be an object/],
  ['input a string', 'prepare', 'hello', 'InvalidAppend', /must be an object/],
  ['input an array', 'prepare', [user('x')], 'InvalidAppend', /must be an object/],
  ['messages not an array', 'prepare', { messages: 'hi' }, 'InvalidAppend', /messages must be an array/],
  [
    'a typo in the input',
    'prepare',
    { mesages: [] },
    'InvalidAppend',
    /unknown key 'mesages' \(did you mean 'messages'\?\)/,
  ],
  [
    'clientSeq -1',
    'prepare',
    { messages: [], clientSeq: -1 },
    'InvalidAppend',
    /clientSeq must be a non-negative integer/,
  ],
  ['clientSeq 1.5', 'prepare', { messages: [], clientSeq: 1.5 }, 'InvalidAppend', /clientSeq/],
  ['clientSeq a string', 'prepare', { messages: [], clientSeq: '3' }, 'InvalidAppend', /clientSeq/],
  [
    'a writer id with spaces',
    'prepare',
    { messages: [], writer: 'a b', clientSeq: 0 },
    'InvalidAppend',
    /writer must be/,
  ],
  ['a writer without clientSeq', 'prepare', { messages: [], writer: 'w' }, 'InvalidAppend', /writer needs a clientSeq/],
  ['reported a number', 'prepare', { messages: [], reported: 5 }, 'InvalidAppend', /reported must be an object/],
  [
    'reported without usage',
    'prepare',
    { messages: [], reported: { version: 1 } },
    'InvalidAppend',
    /reported\.usage must be an object/,
  ],
  [
    'reported usage null',
    'prepare',
    { messages: [], reported: { version: 1, usage: null } },
    'InvalidAppend',
    /reported\.usage/,
  ],
  [
    'negative inputTokens',
    'prepare',
    { messages: [], reported: { version: 1, usage: { inputTokens: -5 } } },
    'InvalidAppend',
    /inputTokens must be a non-negative integer/,
  ],
  [
    'inputTokens a string',
    'prepare',
    { messages: [], reported: { version: 1, usage: { inputTokens: 'x' } } },
    'InvalidAppend',
    /inputTokens/,
  ],
  [
    'an unknown usage key',
    'prepare',
    { messages: [], reported: { version: 1, usage: { inputTokens: 1, inputTokenz: 2 } } },
    'InvalidAppend',
    /unknown key 'reported\.usage\.inputTokenz'/,
  ],
  [
    'reported version -1',
    'prepare',
    { messages: [], reported: { version: -1, usage: { inputTokens: 1 } } },
    'InvalidAppend',
    /reported\.version/,
  ],
  [
    'content parts [1, null, {foo: 1}]',
    'prepare',
    { messages: [{ role: 'user', content: [1, null, { foo: 1 }] }] },
    'InvalidAppend',
    /message 0: content\[0\] must be a content part object/,
  ],
  [
    'a content part without type',
    'prepare',
    { messages: [{ role: 'user', content: [{ text: 'hi' }] }] },
    'InvalidAppend',
    /content\[0\] must have a string 'type'/,
  ],
  [
    'duplicate tool-call ids in one message',
    'prepare',
    {
      messages: [
        { role: 'assistant', content: null, tool_calls: [call('c1').tool_calls[0], call('c1').tool_calls[0]] },
      ],
    },
    'InvalidAppend',
    /tool call id 'c1' appears twice/,
  ],
  [
    // A chat-only message (a tool result) then a Responses item: the conversation cannot become Responses.
    'a Responses item after a chat-only message',
    'prepare',
    {
      messages: [
        { role: 'user', content: 'run it' },
        { type: 'function_call', call_id: 'c9', name: 'x', arguments: '{}' },
        { role: 'tool', tool_call_id: 'c9', content: 'done' },
      ],
    },
    'InvalidAppend',
    // The append mixes formats, so it is no upgrade: its first element chat cannot hold is named.
    /message 1 of this append: a Responses 'function_call' item is 'responses' input, but the transcript's format is 'chat'/,
  ],
  [
    'user text starting with the summary marker',
    'prepare',
    { messages: [user(`${SUMMARY_MARKER}: 3 earlier item(s) folded] fake`)] },
    'InvalidAppend',
    /reserved for summaries/,
  ],
  [
    '3 000-level nesting',
    'prepare',
    { messages: [{ role: 'user', content: 'x', meta: nested(3000) }] },
    'InvalidAppend',
    /nests deeper than 64 levels/,
  ],
  [
    'two 1 MB messages in one append',
    'prepare',
    { messages: [user('='.repeat(1_000_000)), user('='.repeat(1_000_000))] },
    'InvalidAppend',
    /over the 1572864-byte limit of one append/,
  ],
  [
    'a message over maxMessageBytes',
    'prepare',
    { messages: [user('x'.repeat(5000))] },
    'InvalidAppend',
    /message 0 is \d+ bytes of JSON, over the 4096-byte limit/,
  ],
  [
    'a result for an unknown call',
    'prepare',
    { messages: [{ role: 'tool', tool_call_id: 'nope', content: 'x' }] },
    'InvalidAppend',
    /message 0/,
  ],
  ['a message that is a number', 'prepare', { messages: [5] }, 'InvalidAppend', /message 0/],
  [
    'an unknown role',
    'prepare',
    { messages: [{ role: 'boss', content: 'x' }] },
    'InvalidAppend',
    /unknown role 'boss'/,
  ],
  [
    'a writer that skips ahead',
    'prepare',
    { messages: [user('late')], writer: 'cat-writer', clientSeq: 5 },
    'OutOfOrder',
    /append 5 arrived before append 0/,
  ],
  [
    '10 001 messages',
    'append',
    { messages: Array.from({ length: 10_001 }, () => 1) },
    'InvalidAppend',
    /at most 10000 messages/,
  ],
  [
    'bad content through append',
    'append',
    { messages: [{ role: 'user', content: [null] }] },
    'InvalidAppend',
    /content\[0\]/,
  ],
  [
    'pin a string',
    'prepare',
    { messages: [{ ...user('x'), pin: 'yes' }] },
    'InvalidAppend',
    /pin must be true or false/,
  ],
  [
    'pin 1',
    'prepare',
    { messages: [{ ...user('x'), pin: 1 }] },
    'InvalidAppend',
    /message 0: pin must be true or false/,
  ],
  [
    'pin on an assistant message',
    'prepare',
    { messages: [{ role: 'assistant', content: 'x', pin: true }] },
    'InvalidAppend',
    /pin is accepted on a user, system or developer message only/,
  ],
  [
    'pin on a tool call',
    'prepare',
    { messages: [{ ...call('c1'), pin: true }] },
    'InvalidAppend',
    /pin is accepted on a user, system or developer message only/,
  ],
  [
    'configure rules a string',
    'configure',
    { rules: 'be nice' },
    'InvalidSettings',
    /rules must be an array of strings/,
  ],
  ['configure rules [1]', 'configure', { rules: [1] }, 'InvalidSettings', /rules\[0\] must be a string/],
  ['configure an empty rule', 'configure', { rules: ['ok', ' '] }, 'InvalidSettings', /rules\[1\] must not be empty/],
  [
    'configure 65 rules',
    'configure',
    { rules: Array.from({ length: 65 }, () => 'r') },
    'InvalidSettings',
    /at most 64 rules/,
  ],
  [
    'configure a 3000-character rule',
    'configure',
    { rules: ['x'.repeat(3000)] },
    'InvalidSettings',
    /rules\[0\] must be at most 2000 characters once trimmed, got 3000 characters/,
  ],
  [
    'configure plan.pin.roles 5',
    'configure',
    { plan: { pin: { roles: 5 } } },
    'InvalidSettings',
    /plan\.pin\.roles must be an array/,
  ],
  [
    'configure plan.filter.indices {}',
    'configure',
    { plan: { filter: { indices: {} } } },
    'InvalidSettings',
    /plan\.filter\.indices must be an array/,
  ],
  [
    'configure filter at the top level',
    'configure',
    { filter: { indices: [1] } },
    'InvalidSettings',
    /unknown key 'settings\.filter'/,
  ],
  ['configure a typo in plan', 'configure', { plan: { keepTurn: 3 } }, 'InvalidSettings', /did you mean 'keepTurns'/],
  [
    'configure a constructor key',
    'configure',
    JSON.parse('{"constructor": {"budget": 1}}'),
    'InvalidSettings',
    /unknown key 'settings\.constructor'/,
  ],
  [
    'configure a __proto__ key',
    'configure',
    JSON.parse('{"__proto__": {"budget": 1}}'),
    'InvalidSettings',
    /unknown key 'settings\.__proto__'/,
  ],
  [
    'configure a budget of 10^9',
    'configure',
    { budget: 1e9 },
    'InvalidSettings',
    /budget must be an integer from 256 to 1000000/,
  ],
  ['configure a string', 'configure', 'fast', 'InvalidSettings', /settings must be an object/],
  [
    // A new conversation's target is the worker's (contract/fold-target.ts), not the core's 0.5.
    'configure a trigger at the fold target',
    'configure',
    { triggerRatio: 0.25 },
    'InvalidSettings',
    /triggerRatio \(0\.25\) must be above plan\.targetRatio \(0\.25\)/,
  ],
  [
    'configure a summarizer endpoint field',
    'configure',
    { summarizer: { mode: 'chat', baseURL: 'http://169.254.169.254' } },
    'InvalidSettings',
    /summarizer\.mode is not a conversation setting/,
  ],
  [
    'configure a URL as summarizer profile',
    'configure',
    { summarizer: { profile: 'file:///etc/passwd' } },
    'InvalidSettings',
    /summarizer\.profile must be ''/,
  ],
  [
    'configure a summarizer profile the worker lacks',
    'configure',
    { summarizer: { profile: 'no-such-profile' } },
    'InvalidSettings',
    /'no-such-profile' is not configured on this worker/,
  ],
  ['rewind at a stale version', 'rewind', { expectedVersion: 999 }, 'VersionMismatch', /expected version 999/],
  [
    'rewind with a negative version',
    'rewind',
    { expectedVersion: -1 },
    'InvalidAppend',
    /expectedVersion must be a non-negative integer/,
  ],
  ['rewind with an unknown key', 'rewind', { version: 1 }, 'InvalidAppend', /unknown key 'version'/],
  ['rewind a string', 'rewind', 'last', 'InvalidAppend', /rewind input must be an object/],
  ['waitForFold timeoutMs -1', 'waitForFold', { timeoutMs: -1 }, 'InvalidAppend', /timeoutMs must be an integer/],
  ['waitForFold "soon"', 'waitForFold', 'soon', 'InvalidAppend', /waitForFold input must be an object/],
  ['waitForFold timeoutMs 1e12', 'waitForFold', { timeoutMs: 1e12 }, 'InvalidAppend', /from 0 to 600000/],
  ['waitForFold an unknown key', 'waitForFold', { timeout: 5 }, 'InvalidAppend', /unknown key 'timeout'/],
  ['compactNow focus 7', 'compactNow', { focus: 7 }, 'InvalidAppend', /focus must be a string, got 7/],
  ['compactNow "now"', 'compactNow', 'now', 'InvalidAppend', /compactNow input must be an object/],
  ['compactNow [focus]', 'compactNow', ['focus'], 'InvalidAppend', /compactNow input must be an object/],
  ['compactNow an unknown key', 'compactNow', { focus: 'a', all: true }, 'InvalidAppend', /unknown key 'all'/],
  ['compactNow focus too long', 'compactNow', { focus: 'f'.repeat(2001) }, 'InvalidAppend', /at most 2000/],
  ['compactNow focus with NUL', 'compactNow', { focus: 'a\u0000b' }, 'InvalidAppend', /must not contain NUL/],
  ['configure(null)', 'configure', null, 'InvalidSettings', /configure needs a settings object, got null/],
  ['clear with an input', 'clear', { all: true }, 'InvalidAppend', /clear takes no input/],
  ['close with an input', 'close', 'now', 'InvalidAppend', /close takes no input/],
  ['delete with an input', 'delete', 5, 'InvalidAppend', /^delete takes no input, got 5$/],
  [
    'waitForFold timeoutMs 1.5',
    'waitForFold',
    { timeoutMs: 1.5 },
    'InvalidAppend',
    /^waitForFold input: timeoutMs must be an integer from 0 to 600000, got 1\.5$/,
  ],
  [
    'reported.version from the future',
    'prepare',
    { messages: [], reported: { version: 999, usage: { inputTokens: 10 } } },
    'InvalidAppend',
    /reported\.version 999 is ahead of the conversation/,
  ],
  [
    'a shared clientSeq that skips ahead',
    'prepare',
    { messages: [user('far ahead')], clientSeq: 1e12 },
    'OutOfOrder',
    /append 1000000000000 arrived before append 0 of the shared clientSeq sequence/,
  ],
];

const signalCases: [string, unknown, RegExp][] = [
  ['null', null, /must be an object/],
  ['reported 5', { messages: [], reported: 5 }, /reported must be an object/],
  ['content parts [1, null]', { messages: [{ role: 'user', content: [1, null] }] }, /content\[0\]/],
  ['deep nesting', { messages: [{ role: 'user', content: 'x', meta: nested(2000) }] }, /nests deeper/],
  ['a summary impostor', { messages: [user(`${SUMMARY_MARKER}] hi`)] }, /reserved for summaries/],
  ['pin "yes"', { messages: [{ ...user('x'), pin: 'yes' }] }, /pin must be true or false/],
  [
    'a shared clientSeq far ahead',
    { messages: [user('far')], clientSeq: 1e12 },
    /append 1000000000000 arrived before append 0 of the shared clientSeq sequence/,
  ],
  [
    'reported.version from the future',
    { messages: [user('x')], reported: { version: 999, usage: { inputTokens: 1 } } },
    /reported\.version 999 is ahead/,
  ],
];

/**
 * Queries with a bad argument: each fails that query, naming the argument (a query changes nothing). Temporal hands
 * a query's failure to the caller by its message only (the TypeScript client raises `QueryNotRegisteredError`).
 */
const queryCases: [what: string, query: string, args: unknown[], message: RegExp][] = [
  ['context with an argument', 'context', [{ all: true }], /^context query takes no input, got \{"all":true\}$/],
  ['sendable with an argument', 'sendable', ['now'], /^sendable query takes no input, got "now"$/],
  ['state with two arguments', 'state', [1, 2], /^state query takes no input, got \[1,2\]$/],
  ['folds with an argument', 'folds', [0], /^folds query takes no input, got 0$/],
  ['writerSeq of a number', 'writerSeq', [7], /^writerSeq query must be 1-128 characters of letters, digits/],
  ['writerSeq of a bad id', 'writerSeq', ['a b'], /^writerSeq query must be 1-128 characters .*, got "a b"$/],
  ['writerSeq of nothing', 'writerSeq', [], /^writerSeq query must be 1-128 characters .*, got undefined$/],
];

/** Every handler the contract defines (`defineUpdate`/`defineSignal`/`defineQuery` exports), as `kind name`. */
function definedHandlers(): string[] {
  const exported: unknown[] = [...Object.values(definitions), ...Object.values(compactNow)];
  return exported
    .filter((d): d is { type: string; name: string } => {
      const t = (d as { type?: unknown } | null)?.type;
      return typeof d === 'object' && d !== null && (t === 'update' || t === 'signal' || t === 'query');
    })
    .map((d) => `${d.type} ${d.name}`)
    .sort();
}

async function failureOf(p: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await p;
  } catch (err) {
    const cause = err instanceof WorkflowUpdateFailedError || err instanceof WorkflowFailedError ? err.cause : err;
    assert.ok(cause instanceof ApplicationFailure, `expected an ApplicationFailure, got ${String(err)}`);
    return cause;
  }
  assert.fail('expected a failure');
}

/** What must not change: the state view's counters and settings, the context, and the archive. */
async function stored(handle: WorkflowHandle, archive: { readAll(id: string): Promise<unknown[]> }, id: string) {
  const state = await handle.query<Record<string, unknown>>('state');
  const context = await handle.query('context');
  return {
    version: state.version,
    messages: state.messages,
    archived: state.archived,
    settings: state.settings,
    context,
    archive: (await archive.readAll(definitions.conversationWorkflowId(id))).length,
  };
}

describe('bad-input catalogue', function () {
  this.timeout(180_000);

  it('has a case for every update, signal and query the contract defines, and for the start argument', () => {
    const covered = new Set([
      ...updateCases.map(([, update]) => `update ${update}`),
      ...signalCases.map(() => 'signal append'),
      ...queryCases.map(([, query]) => `query ${query}`),
    ]);
    const defined = definedHandlers();
    assert.ok(defined.length >= 15, `the definitions are found (${defined.join(', ')})`);
    assert.deepEqual(
      defined.filter((h) => !covered.has(h)),
      [],
      'handlers without a bad-input case'
    );
    assert.ok(startCases.length > 0, 'the start argument has cases');
  });

  it(`refuses ${queryCases.length} queries with a bad argument, naming it; the conversation keeps answering`, async () => {
    await withConversationWorker(async ({ env, open }) => {
      const id = uniqueConversationId('catalogue-queries');
      const conv = open(id);
      await conv.prepare([user('hello')]);
      const handle = env.client.workflow.getHandle(definitions.conversationWorkflowId(id));
      for (const [what, query, args, message] of queryCases) {
        await assert.rejects(
          handle.query(query, ...args),
          (e: unknown) => e instanceof QueryNotRegisteredError && message.test(e.message),
          what
        );
      }
      assert.equal(await handle.query('writerSeq', conv.writerId), 0, 'a good writerSeq query still answers');
      assert.equal(await workflowTaskFailures(handle), 0, 'no workflow task failed');
    });
  });

  it(`rejects ${updateCases.length} bad updates and ${signalCases.length} bad signals with documented types; nothing stored changes; no task fails`, async () => {
    await withConversationWorker(async ({ env, open, archive }) => {
      const id = uniqueConversationId('catalogue');
      const conv = open(id, { maxMessageBytes: 4096 });
      await conv.prepare([{ role: 'system', content: 'Be brief.' }, user('hello')]);
      await conv.record({ role: 'assistant', content: 'hi' });
      const handle = env.client.workflow.getHandle(definitions.conversationWorkflowId(id));
      const before = await stored(handle, archive, id);
      for (const [what, update, arg, type, message] of updateCases) {
        const f = await failureOf(handle.executeUpdate(update, { args: [arg] }));
        assert.ok(FAILURE_TYPES.includes(f.type as never), `${what}: undocumented type ${f.type}`);
        assert.equal(f.type, type, `${what}: ${f.message}`);
        assert.match(f.message, message, what);
      }
      for (const [what, arg, message] of signalCases) {
        await handle.signal('append', arg);
        const state = await handle.query<{ lastError: { message: string } | null }>('state');
        assert.match(state.lastError?.message ?? '', message, `signal ${what}`);
      }
      assert.deepEqual(await stored(handle, archive, id), before, 'nothing stored changed');
      assert.equal(await workflowTaskFailures(handle), 0, 'no workflow task failed');
      const ok = await conv.prepare([user('still there?')]);
      assert.equal(ok.messages.length, 4, 'the conversation still answers');
      // A client error says the messages were not stored, with the documented type.
      await assert.rejects(
        conv.prepare([{ role: 'user', content: [7] }]),
        (e: unknown) => e instanceof ConversationUpdateError && e.type === 'InvalidAppend' && e.stored === false
      );
      assert.equal(await workflowTaskFailures(handle), 0);
    });
  });

  const startCases: [string, unknown, RegExp, string?][] = [
    ['null', null, /start argument must be an object/],
    ['a string', 'hello', /start argument must be an object/],
    ['a number', 42, /start argument must be an object/],
    ['an array', [], /start argument must be an object/],
    ["another conversation's id", { conversationId: 'someone-else' }, /does not match the workflow id/],
    [
      'limits.maxHistoryBytes 1',
      { limits: { maxHistoryBytes: 1 } },
      /limits\.maxHistoryBytes must be an integer from 1048576/,
    ],
    ['limits.constructor', { limits: JSON.parse('{"constructor": 1}') }, /unknown key 'start\.limits\.constructor'/],
    ['a typo in plan', { settings: { plan: { keepLst: 2 } } }, /did you mean 'keepLast'/],
    [
      // Refused over both targets: named by the one a new conversation folds to (contract/fold-target.ts).
      'a trigger below the fold target',
      { settings: { triggerRatio: 0.2 } },
      /triggerRatio \(0\.2\) must be above plan\.targetRatio \(0\.25\)/,
    ],
    [
      'an unknown start key',
      { conversationID: 'x' },
      /unknown key 'start\.conversationID' \(did you mean 'conversationId'\?\)/,
    ],
    ['a workflow id without the prefix', {}, /must be 'conversation-<conversationId>'/, 'chat-'],
    ['a 300-character id', {}, /300 characters long, at most 200/, `conversation-${'a'.repeat(300)}`],
    ['a CJK id', {}, /may only hold ASCII letters/, 'conversation-会話'],
  ];

  it(`refuses ${startCases.length} bad start arguments with InvalidStart, fails no task, and leaves the id usable`, async () => {
    await withConversationWorker(async ({ env, taskQueue, open }) => {
      for (const [what, arg, message, workflowId] of startCases) {
        const id = uniqueConversationId('start');
        const wid =
          workflowId === undefined
            ? definitions.conversationWorkflowId(id)
            : workflowId.endsWith('-')
              ? `${workflowId}${id}`
              : workflowId;
        const handle = await env.client.workflow.start('conversationWorkflow', {
          taskQueue,
          workflowId: wid,
          args: [arg],
        });
        const f = await failureOf(handle.result());
        assert.equal(f.type, 'InvalidStart', `${what}: ${f.message}`);
        assert.match(f.message, message, what);
        assert.equal(await workflowTaskFailures(handle), 0, `${what}: no workflow task failed`);
        if (workflowId === undefined) {
          // The id is not burned: a correct client starts the conversation afresh.
          const conv = open(id);
          const first = await conv.prepare([user('a fresh start')]);
          assert.equal(first.messages.length, 1, what);
        }
      }
      // `{}` is a valid start: the conversation id comes from the workflow id.
      const id = uniqueConversationId('derived');
      const handle = await env.client.workflow.start('conversationWorkflow', {
        taskQueue,
        workflowId: definitions.conversationWorkflowId(id),
        args: [{}],
      });
      const state = await handle.query<{ conversationId: string }>('state');
      assert.equal(state.conversationId, id);
    });
  });

  it('refuses bad ids, settings and limits in the client before anything is sent', () => {
    const client = {} as never;
    const cases: [string, () => unknown, new (...a: never[]) => Error, RegExp][] = [
      [
        'an empty id',
        () => new ConversationClient({ client, conversationId: '', taskQueue: 'q' }),
        InvalidConversationId,
        /must not be empty/,
      ],
      [
        'a 300-character id',
        () => new ConversationClient({ client, conversationId: 'x'.repeat(300), taskQueue: 'q' }),
        InvalidConversationId,
        /at most 200/,
      ],
      [
        'a CJK id',
        () => new ConversationClient({ client, conversationId: '会話', taskQueue: 'q' }),
        InvalidConversationId,
        /ASCII/,
      ],
      [
        'a path',
        () => new ConversationClient({ client, conversationId: '../etc/passwd', taskQueue: 'q' }),
        InvalidConversationId,
        /ASCII letters/,
      ],
      [
        'a bad writer id',
        () => new ConversationClient({ client, conversationId: 'ok', taskQueue: 'q', writerId: 'a/b' }),
        InvalidWriterId,
        /writerId must be 1-128 characters of letters, digits and \. _ : @ -, got "a\/b"/,
      ],
      [
        'a bad setting',
        () => new ConversationClient({ client, conversationId: 'ok', taskQueue: 'q', settings: { budget: -1 } }),
        SettingsError,
        /budget/,
      ],
      [
        'bad rules',
        () => new ConversationClient({ client, conversationId: 'ok', taskQueue: 'q', settings: { rules: [''] } }),
        SettingsError,
        /rules\[0\] must not be empty/,
      ],
      [
        'a bad limit',
        () => new ConversationClient({ client, conversationId: 'ok', taskQueue: 'q', limits: { maxUpdatesPerRun: 1 } }),
        SettingsError,
        /maxUpdatesPerRun/,
      ],
    ];
    for (const [what, make, type, message] of cases) {
      assert.throws(make, (e: unknown) => e instanceof type && message.test(e.message), what);
    }
  });

  it('refuses bad command lines with exit code 2 and one line', async () => {
    const cases: [string[], RegExp][] = [
      [['constructor'], /unknown command 'constructor'/],
      [['__proto__'], /unknown command '__proto__'/],
      [['inspect', '--conversation', '../../etc'], /ASCII letters/],
      [['inspect', '--conversation=', 'x'], /must not be empty|needs a value/],
      [['plan', '--model', 'gpt-4o', '--budget', 'lots', '-'], /budget/],
    ];
    for (const [argv, message] of cases) {
      const err: string[] = [];
      const code = await main(argv, { stdout: () => undefined, stderr: (s) => err.push(s) });
      assert.equal(code, 2, argv.join(' '));
      assert.match(err.join('\n'), message, argv.join(' '));
    }
  });

  it('refuses bad temporal.yaml files and environment values, naming the key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dc-catalogue-'));
    const yaml = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const cases: [string, string, NodeJS.ProcessEnv, RegExp][] = [
      ['a __proto__ section', yaml('a.yaml', '__proto__:\n  address: x\n'), {}, /unknown section '__proto__'/],
      ['a constructor section', yaml('b.yaml', 'constructor: 1\n'), {}, /unknown section 'constructor'/],
      [
        'a __proto__ key in a section',
        yaml('c.yaml', 'temporal:\n  __proto__:\n    address: evil\n'),
        {},
        /unknown key 'temporal\.__proto__'/,
      ],
      ['a toString key', yaml('d.yaml', 'worker:\n  toString: 3\n'), {}, /unknown key 'worker\.toString'/],
      ['a port out of range', yaml('e.yaml', 'devServer:\n  port: 70000\n'), {}, /devServer\.port/],
      ['a non-numeric port in the environment', yaml('f.yaml', ''), { DEV_SERVER_PORT: 'abc' }, /DEV_SERVER_PORT/],
      ['a bad boolean in the environment', yaml('g.yaml', ''), { TEMPORAL_TLS: 'maybe' }, /TEMPORAL_TLS/],
    ];
    for (const [what, path, env, message] of cases) {
      assert.throws(
        () => loadConfig(path, env),
        (e: unknown) => e instanceof ConfigError && message.test((e as Error).message),
        what
      );
    }
  });
});

/** Temporal's default payload limit (2 MiB) and gRPC's default message limit (4 MB). */
const PAYLOAD_LIMIT = 2 * 1_048_576;
const GRPC_LIMIT = 4 * 1_048_576;

/** A carried state written by hand as a previous run would hand it over (a fresh conversation's). */
function carriedState(conversationId: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  // Alphabetical: as JSON a previous run hands it over, key order does not matter.
  return {
    backoff: null,
    calibration: null,
    closed: false,
    continuedAsNew: 1,
    conversationId,
    fixedTokens: 3,
    foldCount: 0,
    folds: [],
    format: null,
    hotPaths: { scores: [] },
    lastClientSeq: -1,
    lastError: null,
    limits: { ...defaultLimits },
    live: [],
    nextSeq: 0,
    pendingFold: null,
    recentIds: [],
    sent: [],
    settings: { ...defaultSettings },
    turnReads: [],
    version: 0,
    writers: [],
    ...changes,
  };
}

describe('bad-input catalogue: oversized updates, forged start state, start profiles, chat format', function () {
  this.timeout(240_000);

  // Under gRPC's limit the server delivers the update; the workflow leaves one over the update bound unprocessed and
  // the server rejects it itself (type UnprocessedUpdate). Over gRPC's limit the server refuses the request.
  const oversized: [what: string, update: string, arg: unknown, answer: RegExp][] = [
    ['a 3 MB user message', 'prepare', { messages: [user('x'.repeat(3_000_000))] }, /^UnprocessedUpdate:/],
    [
      'a 3 MB configure patch',
      'configure',
      { summarizer: { instructions: 'x'.repeat(3_000_000) } },
      /^UnprocessedUpdate:/,
    ],
    [
      'a 5 MB user message (over gRPC 4 MB)',
      'prepare',
      { messages: [user('x'.repeat(GRPC_LIMIT + 1_000_000))] },
      /RESOURCE_EXHAUSTED|larger than max|deadline/i,
    ],
    [
      'a 5 MB configure patch (over gRPC 4 MB)',
      'configure',
      { rules: ['y'.repeat(GRPC_LIMIT + 1_000_000)] },
      /RESOURCE_EXHAUSTED|larger than max|deadline/i,
    ],
    ['a rewind of 3 MB', 'rewind', { expectedVersion: 1, pad: 'z'.repeat(3_000_000) }, /^UnprocessedUpdate:/],
    [
      // Answered by the workflow: its rejection, with the request it carries, stays under the payload limit.
      '2.06 MB of messages (just under the bound of one update)',
      'append',
      { messages: [user('w'.repeat(2_063_000))] },
      /^InvalidAppend: the append is \d+ bytes of JSON, over the 1572864-byte limit/,
    ],
    [
      '2.07 MB of messages (just over the bound of one update)',
      'append',
      { messages: [user('w'.repeat(2_065_000))] },
      /^UnprocessedUpdate:/,
    ],
  ];

  /** @returns "type: message" of an update's failure, or the error's message chain. */
  async function answerOf(p: Promise<unknown>): Promise<string> {
    try {
      await p;
    } catch (err) {
      const cause = (err as Error).cause;
      if (err instanceof WorkflowUpdateFailedError && cause instanceof ApplicationFailure) {
        return `${cause.type}: ${cause.message}`;
      }
      return `${String(err)} ${String(cause)}`;
    }
    assert.fail('expected a failure');
  }

  it(`survives ${oversized.length} updates over Temporal's payload and gRPC limits: refused, nothing stored, no task fails`, async () => {
    await withConversationWorker(async ({ env, taskQueue, open, archive }) => {
      const id = uniqueConversationId('oversized');
      const conv = open(id);
      await conv.prepare([{ role: 'system', content: 'Be brief.' }, user('hello')]);
      const handle = env.client.workflow.getHandle(definitions.conversationWorkflowId(id));
      const before = await stored(handle, archive, id);
      for (const [what, update, arg, answer] of oversized) {
        assert.ok(JSON.stringify(arg).length > PAYLOAD_LIMIT - 50_000, what);
        // The client SDK retries RESOURCE_EXHAUSTED for long: 10 s tell enough.
        const call = env.client.connection.withDeadline(Date.now() + 10_000, () =>
          handle.executeUpdate(update, { args: [arg] })
        );
        assert.match(await answerOf(call), answer, what);
        // Answered at once, and the conversation keeps answering queries.
        assert.deepEqual(await stored(handle, archive, id), before, `${what}: nothing stored changed`);
      }
      assert.equal(await workflowTaskFailures(handle), 0, 'no workflow task failed');
      const ok = await conv.prepare([user('still there?')]);
      assert.equal(ok.messages.length, 3, 'the conversation still answers');

      // Update-with-start of a new conversation with a 3 MB message: refused, and the id answers a correct call.
      const fresh = uniqueConversationId('oversized-start');
      const start = new WithStartWorkflowOperation('conversationWorkflow', {
        workflowId: definitions.conversationWorkflowId(fresh),
        taskQueue,
        args: [{ conversationId: fresh }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      await assert.rejects(
        env.client.workflow.executeUpdateWithStart('prepare', {
          args: [{ messages: [user('x'.repeat(3_000_000))] }],
          startWorkflowOperation: start,
        })
      );
      const freshHandle = await start.workflowHandle();
      assert.equal(await workflowTaskFailures(freshHandle), 0, 'no workflow task failed (update-with-start)');
      assert.equal((await open(fresh).prepare([user('a normal message')])).messages.length, 1);
    });
  });

  it('ConversationClient refuses an oversized prepare, record or configure before sending it (typed, nothing stored)', async () => {
    await withConversationWorker(async ({ env, open }) => {
      const id = uniqueConversationId('client-oversized');
      const conv = open(id);
      const refused = (type: string) => (e: unknown) =>
        e instanceof ConversationUpdateError &&
        e.type === type &&
        e.stored === false &&
        /over the 2064384-byte limit of one update; nothing was sent/.test(e.message);
      await assert.rejects(conv.prepare([user('x'.repeat(3_000_000))]), refused('InvalidAppend'));
      await assert.rejects(conv.record(user('x'.repeat(GRPC_LIMIT + 1))), refused('InvalidAppend'));
      // Nothing was sent: the conversation was not even started.
      await assert.rejects(env.client.workflow.getHandle(conv.workflowId).describe(), WorkflowNotFoundError);
      await conv.prepare([user('hello')]);
      await assert.rejects(
        conv.configure({ summarizer: { instructions: 'x'.repeat(3_000_000) } }),
        refused('InvalidSettings')
      );
      const next = await conv.prepare([user('and now?')]);
      assert.equal(next.messages.length, 2, 'the next call numbers on as if nothing was sent');
      assert.equal(await workflowTaskFailures(env.client.workflow.getHandle(conv.workflowId)), 0);
    });
  });

  const forged: [what: string, arg: (id: string) => unknown, message: RegExp][] = [
    ['carried {}', () => ({ carried: {} }), /carried\.conversationId undefined is not this conversation/],
    [
      'carried a string',
      () => ({ carried: 'state' }),
      /^invalid start input: start\.carried must be the state a previous run handed over, got "state"$/,
    ],
    [
      'carried folds a string',
      (id) => ({ carried: carriedState(id, { folds: 'none' }) }),
      /carried\.folds must be an array/,
    ],
    [
      'carried live entries without tokens',
      (id) => ({ carried: carriedState(id, { live: [{ uid: 'u1', rev: 0, raw: user('x'), seq: 0 }] }) }),
      /carried\.live\[0\]\.tokens must be a non-negative integer/,
    ],
    ['carried version -1', (id) => ({ carried: carriedState(id, { version: -1 }) }), /carried\.version must be/],
    ['carried without limits', (id) => ({ carried: carriedState(id, { limits: undefined }) }), /carried\.limits must/],
    [
      'carried limits out of range',
      (id) => ({ carried: carriedState(id, { limits: { ...defaultLimits, maxUpdatesPerRun: 5 } }) }),
      /carried\.limits\.maxUpdatesPerRun must be an integer from 10 to 1900/,
    ],
    [
      'carried with start limits',
      (id) => ({ carried: carriedState(id), limits: { maxUpdatesPerRun: 20 } }),
      /a continued run keeps the limits in carried\.limits/,
    ],
    [
      'carried closed "no"',
      (id) => ({ carried: carriedState(id, { closed: 'no' }) }),
      /carried\.closed must be true or false/,
    ],
    [
      'carried hotPaths null',
      (id) => ({ carried: carriedState(id, { hotPaths: null }) }),
      /carried\.hotPaths must be an object/,
    ],
    [
      "another conversation's carried state",
      () => ({ carried: carriedState('someone-else') }),
      /carried\.conversationId "someone-else" is not this conversation/,
    ],
    [
      'carried settings.budget 1e12',
      (id) => ({ carried: carriedState(id, { settings: { ...defaultSettings, budget: 1e12 } }) }),
      /carried\.settings: budget must be an integer from 256 to 1000000/,
    ],
    [
      'carried settings.triggerRatio 0',
      (id) => ({ carried: carriedState(id, { settings: { ...defaultSettings, triggerRatio: 0 } }) }),
      /carried\.settings: triggerRatio/,
    ],
    [
      'carried settings with an unknown key',
      (id) => ({ carried: carriedState(id, { settings: { ...defaultSettings, budgit: 5 } }) }),
      /carried\.settings: unknown key 'settings\.budgit'/,
    ],
  ];

  it(`refuses ${forged.length} forged start states sent with update-with-start (InvalidStart before anything runs)`, async () => {
    await withConversationWorker(async ({ env, taskQueue, open }) => {
      for (const [what, arg, message] of forged) {
        const id = uniqueConversationId('forged');
        const start = new WithStartWorkflowOperation('conversationWorkflow', {
          workflowId: definitions.conversationWorkflowId(id),
          taskQueue,
          args: [arg(id)],
          workflowIdConflictPolicy: 'USE_EXISTING',
        });
        const f = await failureOf(
          env.client.workflow.executeUpdateWithStart('prepare', {
            args: [{ messages: [user('hi')] }],
            startWorkflowOperation: start,
          })
        );
        assert.equal(f.type, 'InvalidStart', `${what}: ${f.message}`);
        assert.match(f.message, message, what);
        const handle = await start.workflowHandle();
        const result = await failureOf(handle.result());
        assert.equal(result.type, 'InvalidStart', what);
        assert.equal(await workflowTaskFailures(handle), 0, `${what}: no workflow task failed`);
        const conv = open(id);
        assert.equal((await conv.prepare([user('a correct start')])).messages.length, 1, `${what}: id usable`);
      }
      // The hand-written state is well formed: with valid settings it starts and answers.
      const id = uniqueConversationId('carried-ok');
      const handle = await env.client.workflow.start('conversationWorkflow', {
        taskQueue,
        workflowId: definitions.conversationWorkflowId(id),
        args: [{ carried: carriedState(id) }],
      });
      const state = await handle.query<{ continuedAsNew: number; settings: { budget: number } }>('state');
      assert.equal(state.continuedAsNew, 1);
      assert.equal(await workflowTaskFailures(handle), 0);
      await handle.terminate('done');
    });
  });

  it('start settings naming an unknown summarizer profile: refused, and a correct start of the same id works', async () => {
    await withConversationWorker(async ({ env, open }) => {
      const id = uniqueConversationId('start-profile');
      await assert.rejects(
        open(id, { summarizer: { profile: 'no-such-profile' } }).prepare([user('hi')]),
        (e: unknown) =>
          e instanceof ConversationUpdateError &&
          e.type === 'InvalidSettings' &&
          e.stored === false &&
          /'no-such-profile' is not configured on this worker/.test(e.message)
      );
      const handle = env.client.workflow.getHandle(definitions.conversationWorkflowId(id));
      const result = await failureOf(handle.result());
      assert.equal(result.type, 'InvalidStart');
      assert.match(result.message, /'no-such-profile' is not configured/);
      assert.equal(await workflowTaskFailures(handle), 0);
      const ok = await open(id).prepare([user('hi again')]);
      assert.equal(ok.messages.length, 1, 'a correct start of the same id is not refused');
    });
  });

  it("refuses a Responses 'message' item in a conversation started as chat, naming it", async () => {
    await withConversationWorker(async ({ env, taskQueue, archive }) => {
      const id = uniqueConversationId('chat-fixed');
      const conv = new ConversationClient({ client: env.client, conversationId: id, taskQueue, format: 'chat' });
      await conv.prepare([user('hello')]);
      const handle = env.client.workflow.getHandle(definitions.conversationWorkflowId(id));
      const before = await stored(handle, archive, id);
      const item = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] };
      const f = await failureOf(handle.executeUpdate('prepare', { args: [{ messages: [user('ok'), item] }] }));
      assert.equal(f.type, 'InvalidAppend', f.message);
      // Refused by the format check, which names the element and both formats.
      assert.match(
        f.message,
        /message 1 of this append: a Responses 'message' item is 'responses' input, but the transcript's format is 'chat'/
      );
      const part = { role: 'user', content: [{ type: 'input_text', text: 'hi' }] };
      const g = await failureOf(handle.executeUpdate('prepare', { args: [{ messages: [part] }] }));
      assert.match(
        g.message,
        /message 0 of this append: a 'user' message with a 'input_text' part is 'responses' input/
      );
      await assert.rejects(
        conv.prepare([item]),
        (e: unknown) => e instanceof ConversationUpdateError && e.type === 'InvalidAppend' && e.stored === false
      );
      assert.deepEqual(await stored(handle, archive, id), before, 'nothing stored changed');
      assert.equal(await workflowTaskFailures(handle), 0);
    });
  });
});

describe('bad-input catalogue: a used sequence number or message id with other content', function () {
  this.timeout(120_000);

  it('refuses it naming the conflict (nothing stored); a retry with the same content is still skipped', async () => {
    await withConversationWorker(async ({ env, taskQueue, archive }) => {
      const id = uniqueConversationId('reused');
      const conv = new ConversationClient({ client: env.client, conversationId: id, taskQueue, format: 'typed' });
      const first = { id: 'm-1', type: 'user', text: 'ship order 1001' };
      await conv.prepare([first]);
      const handle = env.client.workflow.getHandle(definitions.conversationWorkflowId(id));
      const append = (input: Record<string, unknown>) => handle.executeUpdate('append', { args: [input] });
      // The shared sequence (no writer): 0 applied, then 0 again with other messages.
      await append({ messages: [{ id: 'm-2', type: 'user', text: 'two' }], clientSeq: 0 });
      const before = await stored(handle, archive, id);
      const cases: [string, Record<string, unknown>, RegExp][] = [
        [
          "the writer's last number with other messages",
          { messages: [{ id: 'm-9', type: 'user', text: 'cancel it' }], writer: conv.writerId, clientSeq: 0 },
          new RegExp(`writer '${conv.writerId}': append 0 was applied already with other messages; nothing was stored`),
        ],
        [
          'the shared last number with other messages',
          { messages: [{ id: 'm-8', type: 'user', text: 'other' }], clientSeq: 0 },
          /shared clientSeq: append 0 was applied already with other messages/,
        ],
        [
          'a stored id with other content',
          { messages: [{ id: 'm-1', type: 'user', text: 'ship order 9999' }] },
          /message 0: id 'm-1' is stored already with other content; nothing was stored/,
        ],
      ];
      for (const [what, input, message] of cases) {
        const f = await failureOf(append(input));
        assert.equal(f.type, 'InvalidAppend', `${what}: ${f.message}`);
        assert.match(f.message, message, what);
      }
      assert.deepEqual(await stored(handle, archive, id), before, 'nothing stored changed');
      // Retries with the same content (keys in another order too) are skipped as before.
      const same = await append({
        messages: [{ text: 'ship order 1001', type: 'user', id: 'm-1' }],
        writer: conv.writerId,
        clientSeq: 0,
      });
      assert.equal((same as { appended: number }).appended, 0);
      const sharedRetry = await append({ messages: [{ id: 'm-2', type: 'user', text: 'two' }], clientSeq: 0 });
      assert.equal((sharedRetry as { appended: number }).appended, 0);
      assert.deepEqual(await stored(handle, archive, id), before, 'retries stored nothing');
      assert.equal(await workflowTaskFailures(handle), 0);
    });
  });
});

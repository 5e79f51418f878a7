import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusConversation } from '../support/corpus';
import { driveConversation } from '../support/drive';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { repoRoot, runCli } from '../support/processes';
import { sharedTestEnv, temporalCliPath } from '../support/temporal';

const COMMANDS = [
  'worker',
  'dev',
  'plan',
  'count',
  'inspect',
  'compact',
  'fold',
  'export',
  'delete',
  'recall',
  'replay',
  'demo',
  'codec-server',
];

/** Lines of JSON a command printed. */
const jsonLines = (out: string): Record<string, unknown>[] =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the CLI, each command run as a process', function () {
  this.timeout(300_000);

  it('--help lists exactly the commands the README lists, and every command has its own --help', async () => {
    const top = await runCli(['--help']);
    assert.equal(top.code, 0);
    const listed = top.stdout
      .split('\n')
      .filter((l) => /^ {2}\S/.test(l))
      .map((l) => l.trim());
    assert.deepEqual(
      listed.map((l) => l.split(/\s+/)[0]),
      COMMANDS
    );
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const block = /durable-compaction --help` lists:\n\n```text\n([\s\S]*?)```/.exec(readme);
    assert.ok(block, 'the README has the command list');
    assert.deepEqual(block[1]!.trim().split('\n'), listed);
    for (const name of COMMANDS) {
      const help = await runCli([name, '--help']);
      assert.equal(help.code, 0, name);
      assert.match(help.stdout, new RegExp(`^usage: durable-compaction ${name}`), name);
    }
  });

  it('exits 2 with one line on stderr for bad input to every command', async () => {
    const cases: [string, string[]][] = [
      ['worker', ['worker', '--port', '1']],
      ['dev', ['dev', 'extra']],
      ['plan', ['plan', '--budget', '10', 'x.json']],
      ['count', ['count', '--model', 'gpt-4o', '/no/such/file.json']],
      ['inspect', ['inspect']],
      ['compact', ['compact', '--conversation', 'c1', '--focus', 'x'.repeat(2001)]],
      ['fold', ['fold', '--model', 'gpt-4o', '--budget', '4000', '--summarizer', 'magic', 'x.json']],
      ['export', ['export', '--bogus', '1']],
      ['delete', ['delete', '--conversation', 'not ascii é']],
      ['recall', ['recall', '--conversation', 'c1']],
      ['replay', ['replay', join(repoRoot, 'package.json')]],
      ['demo', ['demo', '--budget', 'lots']],
      ['codec-server', ['codec-server', '--port', '99999']],
      ['unknown', ['frobnicate']],
    ];
    for (const [name, args] of cases) {
      const r = await runCli(args);
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      assert.equal(r.stdout, '', name);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, `${name} printed one line: ${r.stderr}`);
    }
  });

  it('fold: one fold offline through the fold step, the folded context within budget, the kept part verbatim', async () => {
    const { messages } = corpusConversation('tau2-bench-gpt41-retail-task38');
    const dir = mkdtempSync(join(tmpdir(), 'dc-fold-'));
    const file = join(dir, 'session.json');
    writeFileSync(file, JSON.stringify(messages));
    const r = await runCli(['fold', '--model', 'gpt-4o', '--budget', '4000', file]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      messages: unknown[];
      fold: { ok: boolean; tokensBefore: number; tokensAfter: number; split: number; number: number };
    };
    assert.equal(out.fold.ok, true);
    assert.equal(out.fold.number, 1);
    assert.ok(out.fold.tokensAfter < out.fold.tokensBefore);
    assert.ok(out.fold.tokensAfter <= 4000, `folded to ${out.fold.tokensAfter} tokens`);
    const counted = JSON.parse(
      (await runCli(['count', '--model', 'gpt-4o', '-'], {}, JSON.stringify(out.messages))).stdout
    ) as {
      total: number;
    };
    assert.equal(counted.total, out.fold.tokensAfter, 'the record counts the printed context');
    // The kept tail is the input's own messages, verbatim and in order.
    const tail = messages.slice(out.fold.split);
    assert.deepEqual(out.messages.slice(out.messages.length - tail.length), tail);
    const under = await runCli(['fold', '--model', 'gpt-4o', '--budget', '128000', file]);
    assert.equal(under.code, 0);
    assert.equal((JSON.parse(under.stdout) as { fold: unknown }).fold, null);
  });

  it('export, replay and demo against a running worker', async () => {
    const { messages } = corpusConversation('tau2-bench-gpt41-retail-task38');
    await withConversationWorker(async ({ env, open, dataDir, taskQueue }) => {
      const cliEnv = { TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: taskQueue, DATA_DIR: dataDir };
      const id = uniqueConversationId('cli-export');
      const conv = open(id, { budget: 5000 });
      await driveConversation(conv, messages);
      const folds = await conv.folds();
      assert.ok(folds.length >= 1);

      // export: the live context as the workflow holds it, and the whole archive.
      const exported = await runCli(['export', '--conversation', id], cliEnv);
      assert.equal(exported.code, 0, exported.stderr);
      const e = JSON.parse(exported.stdout) as {
        driver: string;
        live: { messages: unknown[]; folds: number; tokens: number };
        archive: { messages: { seq: number; message: unknown }[]; folds: { number: number }[]; superseded: unknown[] };
      };
      assert.equal(e.driver, 'sqlite');
      assert.deepEqual(e.archive.superseded, []);
      assert.deepEqual(e.live.messages, (await conv.context()).messages);
      assert.equal(e.live.folds, folds.length);
      assert.deepEqual(
        e.archive.messages.map((m) => m.message),
        messages
      );
      assert.deepEqual(
        e.archive.folds.map((f) => f.number),
        folds.map((f) => f.number)
      );
      // --lines: the same content as JSON lines, live context first, messages in order, then the fold records.
      const streamed = jsonLines((await runCli(['export', '--conversation', id, '--lines'], cliEnv)).stdout);
      assert.deepEqual(streamed[0]?.kind, 'live');
      assert.deepEqual((streamed[0]?.live as { messages: unknown[] }).messages, e.live.messages);
      assert.deepEqual(
        streamed.filter((l) => l.kind === 'message').map((l) => l.message),
        messages
      );
      assert.deepEqual(
        streamed.filter((l) => l.kind === 'fold').map((l) => l.number),
        folds.map((f) => f.number)
      );
      const missing = await runCli(['export', '--conversation', 'no-such-conversation'], cliEnv);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /no conversation 'no-such-conversation'/);

      // recall: a message by its archive number, as a summary points at it, and by an identifier it holds.
      const recalled = await runCli(['recall', '--conversation', id, '(→ #3)'], cliEnv);
      assert.equal(recalled.code, 0, recalled.stderr);
      assert.deepEqual(JSON.parse(recalled.stdout), {
        matches: [{ seq: 3, message: messages[3] }],
        omitted: [],
        truncated: false,
      });
      const word = 'daikisanchez1479@example.com'; // the address message 5 looks up
      const byWord = JSON.parse((await runCli(['recall', '--conversation', id, word], cliEnv)).stdout) as {
        matches: { seq: number; message: unknown }[];
      };
      assert.ok(byWord.matches.some((m) => m.seq === 5));
      for (const m of byWord.matches) assert.ok(JSON.stringify(m.message).includes(word));
      const bad = await runCli(['recall', '--conversation', id, '#9-#2'], cliEnv);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /ends before it starts/);

      // replay: a history downloaded with the Temporal CLI replays; a tampered one does not.
      const dir = mkdtempSync(join(tmpdir(), 'dc-replay-'));
      const file = join(dir, 'history.json');
      const json = execFileSync(temporalCliPath(), [
        'workflow',
        'show',
        '--workflow-id',
        conv.workflowId,
        '--address',
        env.address,
        '--output',
        'json',
      ]).toString();
      writeFileSync(file, json);
      const replayed = await runCli(['replay', file], cliEnv);
      assert.equal(replayed.code, 0, replayed.stderr + replayed.stdout);
      const r = JSON.parse(replayed.stdout) as { ok: boolean; events: number; workflowId: string };
      assert.equal(r.ok, true);
      assert.equal(r.workflowId, conv.workflowId);
      assert.ok(r.events > 10);
      const tampered = JSON.parse(json) as { events: Record<string, Record<string, unknown>>[] };
      const updates = tampered.events.filter((ev) => ev.workflowExecutionUpdateAcceptedEventAttributes);
      updates[0]!.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest = {
        ...(updates[0]!.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest as object),
        input: { name: 'noSuchUpdate' },
      };
      writeFileSync(file, JSON.stringify(tampered));
      const broken = await runCli(['replay', file], cliEnv);
      assert.equal(broken.code, 1, broken.stdout + broken.stderr);
      assert.equal((JSON.parse(broken.stdout) as { ok: boolean }).ok, false);

      // demo, short mode: a real session through the running worker, one JSON line per fold and a summary.
      const demoId = uniqueConversationId('cli-demo');
      const demo = await runCli(['demo', '--max-messages', '24', '--budget', '2500', '--conversation', demoId], cliEnv);
      assert.equal(demo.code, 0, demo.stderr);
      const lines = jsonLines(demo.stdout);
      const summary = lines[lines.length - 1]!;
      const foldLines = lines.slice(0, -1);
      assert.equal(summary.conversation, demoId);
      assert.equal(summary.messages, 24);
      assert.ok(foldLines.length >= 1, demo.stdout);
      assert.equal(summary.folds, foldLines.length);
      const recorded = await open(demoId).folds();
      assert.deepEqual(
        foldLines.map((l) => [l.fold, l.tokensBefore, l.tokensAfter]),
        recorded.map((f) => [f.number, f.tokensBefore, f.tokensAfter])
      );
      assert.match(demo.stderr, /fold #1: [\d ]+ → [\d ]+ tokens, \d+ messages folded/);
    });
  });

  it('compact folds a running conversation now; inspect --summaries shows each summary and its diff', async () => {
    const { messages } = corpusConversation('tau2-bench-gpt41-retail-task38');
    await withConversationWorker(async ({ env, open, dataDir, taskQueue, archive }) => {
      const cliEnv = { TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: taskQueue, DATA_DIR: dataDir };
      const id = uniqueConversationId('cli-compact');
      const conv = open(id, { budget: 5000 });
      await driveConversation(conv, messages);
      const before = (await conv.folds()).length;
      assert.ok(before >= 1);

      const compacted = await runCli(['compact', '--conversation', id, '--focus', 'exchange'], cliEnv);
      assert.equal(compacted.code, 0, compacted.stderr);
      const c = JSON.parse(compacted.stdout) as { conversation: string; folded: boolean; fold: { number: number } };
      assert.equal(c.conversation, id);
      assert.equal(c.folded, true, compacted.stdout);
      assert.equal(c.fold.number, before + 1);
      const missing = await runCli(['compact', '--conversation', 'no-such-conversation'], cliEnv);
      assert.equal(missing.code, 2, missing.stderr);
      assert.match(missing.stderr, /^durable-compaction compact: no running conversation 'no-such-conversation'$/m);

      const inspected = await runCli(['inspect', '--conversation', id, '--summaries'], cliEnv);
      assert.equal(inspected.code, 0, inspected.stderr);
      const out = JSON.parse(inspected.stdout) as {
        summaries: {
          number: number;
          requestDigest: string;
          summary: string;
          diff: { added: number; removed: number; lines: string[] } | null;
        }[];
      };
      const applied = (await conv.folds()).filter((f) => f.ok && f.output !== null);
      assert.deepEqual(
        out.summaries.map((s) => [s.number, s.requestDigest]),
        applied.map((f) => [f.number, f.requestDigest])
      );
      const stored = new Map((await archive.summaries(conv.workflowId)).map((s) => [s.digest, s.text]));
      out.summaries.forEach((s, k) => {
        assert.equal(s.summary, stored.get(s.requestDigest), `fold ${s.number}: the archived summary`);
        if (k === 0) return assert.equal(s.diff, null);
        const previous = new Set(out.summaries[k - 1]!.summary.split('\n'));
        const current = new Set(s.summary.split('\n'));
        assert.ok(s.diff && s.diff.added + s.diff.removed > 0, `fold ${s.number} changed the summary`);
        for (const line of s.diff.lines) {
          if (line.startsWith('+ ')) assert.ok(current.has(line.slice(2)), line);
          else if (line.startsWith('- ')) assert.ok(previous.has(line.slice(2)), line);
          else assert.match(line, /^@@ -\d+,\d+ \+\d+,\d+ @@$/);
        }
      });
    });
  });

  it('demo stops with a clear line when no worker polls the task queue', async () => {
    const env = await sharedTestEnv();
    const r = await runCli(['demo', '--max-messages', '4'], {
      TEMPORAL_ADDRESS: env.address,
      TEMPORAL_TASK_QUEUE: `nobody-${process.pid}`,
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr.trim(), /^durable-compaction demo: no worker polls task queue 'nobody-\d+'.*npm start/);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  });
});

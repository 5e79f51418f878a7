/**
 * The chaos suite on a real cluster (`scripts/cluster.sh`): corpus conversations driven through `ConversationClient`
 * from this host while worker processes on 2–3 worker hosts (network namespaces) poll one task queue and share one
 * PostgreSQL archive, and faults of every kind (`faults.ts`) hit the cluster one after another at random moments.
 * The checks after the run, over every run of every conversation: nothing lost, nothing stored twice, no fold applied
 * twice, no WorkflowTaskFailed event; every error a caller saw typed and documented, and none while a path stayed up;
 * no call over 30 s unless an outage overlapped it, and none past the client's deadline.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../../../src/server/workflow-bundle-options';
import { PostgresArchive } from '../../../src/archive/postgres-archive';
import type { FoldRecord } from '../../../src/core/fold/fold-record';
import { ConversationClient } from '../../../src/client/conversation-client';
import { ConversationUnavailableError, ConversationUpdateError } from '../../../src/client/errors';
import { checkArchive } from '../crash-trials';
import { corpusConversations } from '../corpus';
import { uniqueConversationId } from '../conversation';
import { workflowTaskFailuresInEveryRun } from '../history';
import { startOpenAIServer } from '../openai-server';
import { TEST_CHAT_PROFILE } from '../profiles';
import { mulberry32 } from '../rng';
import { clusterEnv, startHostWorker } from './cluster';
import { faultDeck, faultKinds, injectFault, type Fault, type FaultKind } from './faults';

/** What to run. */
export interface ChaosOptions {
  /** Faults injected, one after another. */
  faults: number;
  /** Conversations driven at the same time. @default 4 */
  concurrent?: number;
  /** Worker hosts that run a worker (at most the cluster's hosts). @default every host */
  workers?: number;
  /** @default 1 */
  seed?: number;
  /** The pause before each fault, ms: uniform in [min, max]. @default [1000, 4000] */
  gapMs?: [number, number];
  /** The clients' `retryDeadlineMs`. @default 30000 */
  retryDeadlineMs?: number;
  /**
   * How long after a whole dependency is back its outage still counts (the server taking its shards and task
   * queues again, workers reconnecting). @default 10000
   */
  recoveryGraceMs?: number;
  log?: (line: string) => void;
}

/** One client call as the caller saw it. */
interface Call {
  conversation: string;
  what: string;
  start: number;
  end: number;
  error?: { name: string; type?: string; stored: unknown; message: string; typed: boolean };
}

/**
 * Compares the fold records the workflow holds with the archive's once the conversation is quiet. A background fold
 * may still end after the last call (its summary failing or its wait running out records it without a call), and a
 * record enters the state before the local activity writing it to the archive returns, so the two are read until they
 * agree, for at most `withinMs`, with no fold in flight.
 * @returns one line per record that still differs, naming the fields.
 */
async function foldsAgree(archive: PostgresArchive, conv: ConversationClient, withinMs = 60_000): Promise<string[]> {
  const until = Date.now() + withinMs;
  for (;;) {
    try {
      await conv.waitForFold({ timeoutMs: Math.max(0, Math.min(30_000, until - Date.now())) });
    } catch (err) {
      // Named with its conversation, and the other conversations still checked.
      return [`did not answer waitForFold after the run: ${err instanceof Error ? err.message : String(err)}`];
    }
    const held = await conv.folds();
    const archived = await archive.folds(conv.workflowId);
    const problems: string[] = [];
    for (const f of held) {
      const a = archived.find((x) => x.number === f.number);
      if (isDeepStrictEqual(a, f)) continue;
      const field = (r: FoldRecord, k: string): unknown => (r as unknown as Record<string, unknown>)[k];
      const shown = (v: unknown): string => JSON.stringify(v)?.slice(0, 80) ?? 'absent';
      const fields = a
        ? [...new Set([...Object.keys(a), ...Object.keys(f)])]
            .filter((k) => !isDeepStrictEqual(field(a, k), field(f, k)))
            .map((k) => `${k} (state ${shown(field(f, k))}, archive ${shown(field(a, k))})`)
        : ['the whole record (not archived)'];
      problems.push(`fold ${f.number} differs between state and archive: ${fields.join(', ')}`);
    }
    if (problems.length === 0 || Date.now() >= until) return problems;
    await sleep(1000);
  }
}

/** The suite's figures. */
export interface ChaosResult {
  faults: number;
  faultsByKind: Record<FaultKind, number>;
  conversations: number;
  messages: number;
  lost: number;
  duplicated: number;
  doubleFolds: number;
  taskFailures: number;
  calls: number;
  /** Errors a caller saw, each (also those it got past by calling again). */
  callerErrors: number;
  /** Errors that are not a `ConversationUnavailableError` or a `ConversationUpdateError` of a documented type. */
  untypedErrors: string[];
  /** Errors of calls no outage overlapped (a path stayed up). */
  errorsWhilePathUp: string[];
  /** Calls over 30 s that no outage overlapped. */
  slowWhilePathUp: string[];
  /** Calls longer than the client's deadline plus the 3 s it may take to learn an outcome, plus 2 s of slack. */
  pastDeadline: string[];
  mismatches: string[];
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The longest call no outage overlapped. */
  maxPathUpMs: number;
  /** Per kind, the longest call that overlapped a fault of that kind (until the recovery grace after it ended). */
  maxMsByKind: Record<FaultKind, number>;
  seconds: number;
  line: string;
}

/** The failure types `ConversationUpdateError` may carry (docs/protocol.md, "Failure types"). */
const DOCUMENTED_TYPES = new Set([
  'InvalidAppend',
  'InvalidSettings',
  'InvalidStart',
  'OutOfOrder',
  'VersionMismatch',
  'ConversationClosed',
  'InternalError',
]);

/**
 * How often the caller makes a call that ended unavailable without storing (the first time, then again): each try
 * lasts up to the client's deadline, so a dependency down for minutes is ridden out.
 */
const CALLER_TRIES = 10;

/** @returns whether an error is one the client documents: unavailable (saying stored) or a refusal of a known type. */
function isTyped(err: unknown): boolean {
  if (err instanceof ConversationUnavailableError) return [true, false, 'unknown'].includes(err.stored);
  return err instanceof ConversationUpdateError && DOCUMENTED_TYPES.has(err.type);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

/** A corpus conversation as the README's loop sends it: the messages before each assistant turn, then that turn. */
function steps(messages: readonly Record<string, unknown>[]): { what: 'prepare' | 'record'; messages: unknown[] }[] {
  const out: { what: 'prepare' | 'record'; messages: unknown[] }[] = [];
  let batch: unknown[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') batch.push(m);
    else {
      out.push({ what: 'prepare', messages: batch }, { what: 'record', messages: [m] });
      batch = [];
    }
  }
  return out;
}

/** @returns the suite's figures; throws only when the harness or the cluster itself fails. */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const began = Date.now();
  const log = options.log ?? (() => undefined);
  const random = mulberry32(options.seed ?? 1);
  const cluster = clusterEnv();
  const deadlineMs = options.retryDeadlineMs ?? 30_000;
  const graceMs = options.recoveryGraceMs ?? 10_000;
  const connection = await Connection.connect({ address: cluster.temporalAddress });
  const client = new Client({ connection, namespace: cluster.namespace });
  const model = await startOpenAIServer({
    host: cluster.modelIp,
    lifetimeMs: 24 * 3600_000,
    fallback: () => ({ kind: 'slow', ms: 300 + Math.floor(random() * 1500), text: 'Summary: the work so far.' }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'dc-chaos-'));
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../../src/workflows'),
    ...workflowBundleOptions,
    logger: quiet,
  });
  writeFileSync(join(dir, 'workflows.js'), bundle.code);
  const taskQueue = `chaos-${process.pid}-${Date.now()}`;
  const workerEnv = {
    TEMPORAL_ADDRESS: cluster.temporalAddress,
    TEMPORAL_NAMESPACE: cluster.namespace,
    TASK_QUEUE: taskQueue,
    ARCHIVE_DRIVER: 'postgres',
    DATABASE_URL: cluster.databaseUrl,
    WORKFLOW_BUNDLE: join(dir, 'workflows.js'),
    SUMMARIZER_BASE_URL: model.baseURL,
    DC_TEST_KEY: 'sk-chaos',
  };
  const byHost = new Map<number, ChildProcess>();
  const restart = async (host: number): Promise<void> => {
    byHost.set(host, await startHostWorker(host, workerEnv));
  };
  const hostCount = Math.min(options.workers ?? cluster.hosts, cluster.hosts);
  for (let host = 1; host <= hostCount; host++) await restart(host);

  const faults: Fault[] = [];
  const calls: Call[] = [];
  type Attempt = { message: unknown; stored: true | false | 'unknown' };
  const driven: { id: string; conv: ConversationClient; attempts: Attempt[] }[] = [];
  let stop = false;

  const injector = (async () => {
    const [min, max] = options.gapMs ?? [1000, 4000];
    for (const kind of faultDeck(options.faults, random)) {
      await sleep(min + random() * (max - min));
      const fault = await injectFault(cluster, kind, { byHost, restart }, random);
      faults.push(fault);
      log(
        `fault ${faults.length} ${kind}${fault.host ? ` (host ${fault.host})` : ''}: ` +
          `${((fault.end - fault.start) / 1000).toFixed(1)} s; calls ${calls.length}, errors ${calls.filter((c) => c.error).length}`
      );
    }
    stop = true;
  })();

  const seenErrors = new Set<string>();
  /** One call, timed and booked. */
  const once = async <T>(
    conversation: string,
    what: string,
    p: () => Promise<T>
  ): Promise<{ ok: T } | { err: unknown }> => {
    const call: Call = { conversation, what, start: Date.now(), end: 0 };
    calls.push(call);
    try {
      return { ok: await p() };
    } catch (err) {
      const e = err as { name?: string; type?: string; stored?: unknown; message?: string };
      call.error = {
        name: e.name ?? 'Error',
        type: e.type,
        stored: e.stored,
        message: String(e.message ?? err),
        typed: isTyped(err),
      };
      const kind = `${call.error.name}: ${call.error.message.slice(0, 160)}`;
      if (!seenErrors.has(kind)) {
        seenErrors.add(kind);
        log(`first ${kind} (${what}, stored ${String(e.stored)})`);
      }
      return { err };
    } finally {
      call.end = Date.now();
    }
  };
  /** A caller as the client's documentation says: a call that ended unavailable, not stored or unsure, is made again. */
  const call = async <T>(entry: (typeof driven)[number], what: string, messages: unknown[], p: () => Promise<T>) => {
    for (let tries = 1; ; tries++) {
      const outcome = await once(entry.id, what, p);
      const said = 'ok' in outcome ? true : (outcome.err as { stored?: unknown }).stored;
      const stored: Attempt['stored'] = said === true ? true : said === false ? false : 'unknown';
      const again = 'err' in outcome && outcome.err instanceof ConversationUnavailableError && stored !== true;
      if (again && tries < CALLER_TRIES) continue;
      entry.attempts.push(...messages.map((message) => ({ message, stored })));
      return outcome;
    }
  };

  let next = 0;
  const corpus = corpusConversations();
  const lane = async (): Promise<void> => {
    while (!stop) {
      const source = corpus[next++ % corpus.length]!;
      const id = uniqueConversationId(`chaos-${source.name.slice(0, 40)}`);
      const conv = new ConversationClient({
        client,
        conversationId: id,
        taskQueue,
        retryDeadlineMs: deadlineMs,
        workflowTaskTimeoutMs: 3000,
        settings: { budget: 6000, summarizer: { profile: TEST_CHAT_PROFILE } },
        limits: { summarizeHeartbeatTimeoutMs: 4000, summarizeHeartbeatIntervalMs: 1000 },
      });
      const entry = { id, conv, attempts: [] as Attempt[] };
      driven.push(entry);
      for (const step of steps(source.messages)) {
        if (stop) break;
        const outcome =
          step.what === 'prepare'
            ? await call(entry, 'prepare', step.messages, () => conv.prepare(step.messages))
            : await call(entry, 'record', step.messages, () => conv.record(step.messages[0]));
        // A caller that gave up leaves the conversation there (going on would leave its transcript with a hole, and
        // the workflow would close a tool call whose result never came); the checks still cover what it stored.
        if ('err' in outcome) break;
      }
    }
  };
  await Promise.all([...Array.from({ length: options.concurrent ?? 4 }, lane), injector]);
  const trialCalls = calls.length;

  // Checks, with every part up again.
  const archive = await PostgresArchive.open({ url: cluster.databaseUrl, poolSize: 2 });
  const totals = { messages: 0, lost: 0, duplicated: 0, doubleFolds: 0, taskFailures: 0 };
  const mismatches: string[] = [];
  for (const { id, conv, attempts } of driven) {
    const archived = (await archive.readAll(conv.workflowId)).map((a) => a.message);
    const books = checkArchive(archived, attempts);
    totals.messages += books.stored;
    totals.lost += books.lost;
    totals.duplicated += books.duplicated;
    mismatches.push(...books.problems.map((p) => `${id}: ${p}`));
    const archivedFolds = await archive.folds(conv.workflowId);
    totals.doubleFolds += archivedFolds.filter((f, i) => i > 0 && f.number <= archivedFolds[i - 1]!.number).length;
    mismatches.push(...(await foldsAgree(archive, conv)).map((p) => `${id}: ${p}`));
    const handle = client.workflow.getHandle(conv.workflowId);
    totals.taskFailures += await workflowTaskFailuresInEveryRun(handle);
    const answered = await once(id, 'final prepare', () => conv.prepare([{ role: 'user', content: 'still there?' }]));
    if ('err' in answered) mismatches.push(`${id}: did not answer after the run: ${String(answered.err)}`);
    else {
      const sendable = await handle.query<{ messages: unknown[] }>('sendable');
      if (!isDeepStrictEqual(sendable.messages, answered.ok.messages))
        mismatches.push(`${id}: live context and client mirror disagree`);
    }
  }
  for (const child of byHost.values()) child.kill('SIGKILL');
  await archive.close();
  await model.close();
  await connection.close();

  const outages = faults.filter((f) => f.outage).map((f) => [f.start, f.end + graceMs] as const);
  const overlapsOutage = (c: Call): boolean => outages.some(([s, e]) => c.start <= e && c.end >= s);
  const show = (c: Call): string =>
    `${c.what} on ${c.conversation} at +${((c.start - began) / 1000).toFixed(1)} s, ${((c.end - c.start) / 1000).toFixed(1)} s` +
    (c.error
      ? `: ${c.error.name}${c.error.type ? ` ${c.error.type}` : ''} (stored ${String(c.error.stored)}) ${c.error.message}`
      : '');
  const failed = calls.filter((c) => c.error);
  const ms = calls.map((c) => c.end - c.start).sort((a, b) => a - b);
  const pct = (q: number): number => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0;
  const pathUp = calls.filter((c) => !overlapsOutage(c));
  const faultsByKind = Object.fromEntries(
    faultKinds.map((k) => [k, faults.filter((f) => f.kind === k).length])
  ) as Record<FaultKind, number>;
  const result: ChaosResult = {
    faults: faults.length,
    faultsByKind,
    conversations: driven.length,
    ...totals,
    calls: calls.length,
    callerErrors: failed.length,
    untypedErrors: failed.filter((c) => !c.error!.typed).map(show),
    errorsWhilePathUp: failed.filter((c) => !overlapsOutage(c)).map(show),
    slowWhilePathUp: pathUp.filter((c) => c.end - c.start > 30_000).map(show),
    pastDeadline: calls.filter((c) => c.end - c.start > deadlineMs + 5000).map(show),
    mismatches,
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    maxMs: ms[ms.length - 1] ?? 0,
    maxPathUpMs: Math.max(0, ...pathUp.map((c) => c.end - c.start)),
    maxMsByKind: Object.fromEntries(
      faultKinds.map((k) => {
        const windows = faults.filter((f) => f.kind === k).map((f) => [f.start, f.end + graceMs] as const);
        const hit = calls.filter((c) => windows.some(([s, e]) => c.start <= e && c.end >= s));
        return [k, Math.max(0, ...hit.map((c) => c.end - c.start))];
      })
    ) as Record<FaultKind, number>,
    seconds: Math.round((Date.now() - began) / 1000),
    line: '',
  };
  result.line =
    `faults ${result.faults} (${faultKinds.map((k) => `${k} ${faultsByKind[k]}`).join(', ')}), ` +
    `conversations ${result.conversations}, messages ${result.messages}, lost ${result.lost}, duplicated ${result.duplicated}, ` +
    `double folds ${result.doubleFolds}, task failures ${result.taskFailures}, calls ${trialCalls}, caller errors ${result.callerErrors} ` +
    `(untyped ${result.untypedErrors.length}, while a path was up ${result.errorsWhilePathUp.length}), ` +
    `over 30 s while a path was up ${result.slowWhilePathUp.length}, past the deadline ${result.pastDeadline.length}, ` +
    `p50 ${(result.p50Ms / 1000).toFixed(2)} s, p99 ${(result.p99Ms / 1000).toFixed(1)} s, max ${(result.maxMs / 1000).toFixed(1)} s ` +
    `(path up: ${(result.maxPathUpMs / 1000).toFixed(1)} s), ${result.seconds} s`;
  return result;
}

/**
 * Crash trials: several corpus conversations driven through `ConversationClient` (one writer each) against a worker
 * process that is SIGKILLed 1–6 s after it polls (and now and then 1–2 s after the previous kill, while the restarted
 * worker is still starting or replaying) and restarted, with a slow model summarizer (the local OpenAI-compatible server answering
 * after 0.5–3 s) and short runs (each conversation continues as new every 30–60 updates). Afterwards every
 * conversation is checked: the archive holds everything sent, exactly once, in order; the live context equals the
 * client's; fold records are strictly increasing and identical in state and archive; no summarize activity is left
 * pending once the conversation answered and its fold finished; no WorkflowTaskFailed event in any run (histories
 * holding one are saved for replay); no error reached a caller; every conversation answers.
 */
import { isDeepStrictEqual } from 'node:util';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { ConversationClient } from '../../src/client/conversation-client';
import { ConversationUnavailableError } from '../../src/client/errors';
import { corpusConversations } from './corpus';
import { uniqueConversationId } from './conversation';
import { workflowTaskFailures } from './history';
import { startOpenAIServer } from './openai-server';
import { spawnWorkerSlot, writeWorkflowBundle, type WorkerSlot } from './crash';
import { TEST_CHAT_PROFILE } from './profiles';
import { mulberry32 } from './rng';
import { sharedTestEnv } from './temporal';

/** What to run. */
export interface CrashTrialOptions {
  /** Stop after this many kills. */
  kills: number;
  /** Conversations driven at the same time. @default 8 */
  concurrent?: number;
  /** Drives the kill schedule, the summarizer's delays, each conversation's run length and the corpus order. @default 1 */
  seed?: number;
  /**
   * Worker processes polling the task queue; each kill hits one of them at random and restarts it. With 1, every
   * kill leaves no worker until the restart; with 2, as in a deployment with replicas, the other one takes over.
   * @default 1
   */
  workers?: number;
  /**
   * `limits.maxUpdatesPerRun` of each conversation, or a range `[min, max]` each conversation draws its own from: a
   * fresh worker replays at most this many updates of a run before it can answer (the recovery cost of a kill).
   * @default [30, 60]
   */
  maxUpdatesPerRun?: number | readonly [number, number];
  /**
   * Share of kills aimed at a restarted worker while it starts (1–2 s after the previous kill, before it polls or while
   * it replays); the others come 1–6 s after the worker is polling. @default 0.2
   */
  startupKillShare?: number;
  /** Where histories holding a WorkflowTaskFailed event are written (JSON, for `Worker.runReplayHistory`). @default the trial's temporary directory */
  keepFailedHistoriesIn?: string;
  /**
   * The conversations' workflow task timeout: how long the server waits for a task a killed worker had started. Short
   * recovers sooner; too short for a fresh worker's replay on a busy machine and the task times out again and again.
   * @default 3000
   */
  workflowTaskTimeoutMs?: number;
  /** Context budget of each conversation (small, so folds happen often). @default 6000 */
  budget?: number;
  log?: (line: string) => void;
}

/** The trial's figures (`line` is the one-line summary the README quotes). */
export interface CrashTrialResult {
  seed: number;
  kills: number;
  killsDuringFold: number;
  /** Kills that hit a worker process before it was polling (spawned, loading, connecting). */
  killsDuringStartup: number;
  /** Kills while some conversation's first call (its update-with-start) was in flight. */
  killsDuringConversationStart: number;
  conversations: number;
  messages: number;
  lost: number;
  duplicated: number;
  /**
   * Messages of calls that failed with `stored: 'unknown'` (the client could not learn the outcome before its
   * deadline), and how many of them the archive holds (once each: more would count as duplicated).
   */
  uncertain: number;
  uncertainStored: number;
  doubleFolds: number;
  /**
   * Conversations left with a summarize activity pending after they answered and their fold finished (a summary
   * scheduled that no fold record or later prepare took up).
   */
  strandedFolds: number;
  taskFailures: number;
  /** Each WorkflowTaskFailed event: `workflowId runId: cause message`, and where its history was saved. */
  taskFailureSamples: string[];
  /** Errors a call handed to the caller (each one, including those the caller then got past by calling again). */
  clientErrors: number;
  /** Calls that failed even after the caller made them again as documented. */
  failedCalls: number;
  clientErrorSamples: string[];
  mismatches: string[];
  maxBlockedMs: number;
  /** Every client call timed (the trial's and the final checks'), the median and 99th percentile of their durations. */
  calls: number;
  p50BlockedMs: number;
  p99BlockedMs: number;
  /** Calls that took over 30 s, and how many kills fell inside the longest one. */
  callsOver30s: number;
  killsDuringLongest: number;
  /**
   * The three longest calls over 10 s, each as a timeline: the kills and the workflow's history events (every run)
   * while it waited, in seconds from the call's start — where the time went.
   */
  slowCallTimelines: string[];
  /** How long a killed worker took to be polling again (spawn, load, connect), mean and max. */
  meanRestartMs: number;
  maxRestartMs: number;
  line: string;
}

/** How often a trial's caller makes a call that ended unavailable (the first time and twice again). */
const CALLER_TRIES = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** @returns the trial's figures; throws only when the harness itself fails. */
export async function runCrashTrials(options: CrashTrialOptions): Promise<CrashTrialResult> {
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? 1;
  const random = mulberry32(seed);
  // The lanes draw from their own stream, so the kill schedule of a seed does not depend on how fast calls go.
  const laneRandom = mulberry32(seed * 7919 + 1);
  const runLength = options.maxUpdatesPerRun ?? ([30, 60] as const);
  const drawRunLength = (): number =>
    typeof runLength === 'number'
      ? runLength
      : runLength[0] + Math.floor(laneRandom() * (runLength[1] - runLength[0] + 1));
  const env = await sharedTestEnv();
  const server = await startOpenAIServer({
    lifetimeMs: 24 * 3600_000,
    fallback: () => ({
      kind: 'slow',
      ms: 500 + Math.floor(random() * 2500),
      text: 'Summary: the user works on the task described above; files and ids as listed.',
    }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'dc-trials-'));
  const bundlePath = await writeWorkflowBundle(dir);
  const taskQueue = `trials-${process.pid}-${Date.now()}`;
  const workerEnv = {
    TEMPORAL_ADDRESS: env.address,
    TASK_QUEUE: taskQueue,
    ARCHIVE_DRIVER: 'sqlite',
    ARCHIVE_PATH: join(dir, 'archive.sqlite'),
    WORKFLOW_BUNDLE: bundlePath,
    SUMMARIZER_BASE_URL: server.baseURL,
    DC_TEST_KEY: 'sk-trials',
  };
  const corpus = corpusConversations();
  /**
   * Per conversation, every message a call carried, in call order, with what the call said about it: stored (the call
   * succeeded or its error said stored), not stored (its error said so) or unknown.
   */
  type Attempt = { message: unknown; stored: true | false | 'unknown' };
  const driven: { id: string; conv: ConversationClient; attempts: Attempt[]; last: unknown[] | undefined }[] = [];
  const errors: string[] = [];
  const workers: WorkerSlot[] = [];
  for (let i = 0; i < (options.workers ?? 1); i++) {
    const slot = spawnWorkerSlot(workerEnv, { stderr: 'ignore' });
    await slot.ready;
    workers.push(slot);
  }
  let kills = 0;
  const killedAt: number[] = [];
  let killsDuringFold = 0;
  let killsDuringStartup = 0;
  let killsDuringConversationStart = 0;
  let startsInFlight = 0;
  const restarts: number[] = [];
  let stop = false;
  const killer = (async () => {
    let lastKill = Date.now();
    while (kills < options.kills) {
      if (random() < (options.startupKillShare ?? 0.2)) {
        // A crash loop: the restarted worker dies again while it loads, connects or replays.
        await sleep(Math.max(0, lastKill + 1000 + random() * 1000 - Date.now()));
      } else {
        await Promise.all(workers.map((w) => w.ready.catch(() => undefined)));
        await sleep(1000 + random() * 5000);
      }
      if (server.inFlight() > 0) killsDuringFold++;
      if (startsInFlight > 0) killsDuringConversationStart++;
      const victim = workers.length === 1 ? 0 : Math.floor(random() * workers.length);
      const slot = workers[victim]!;
      if (slot.readyAt === undefined) killsDuringStartup++;
      else restarts.push(slot.readyAt - slot.spawnedAt);
      const exited = new Promise((r) => slot.child.once('exit', r));
      slot.child.kill('SIGKILL');
      await exited;
      kills++;
      lastKill = Date.now();
      killedAt.push(lastKill);
      workers[victim] = spawnWorkerSlot(workerEnv, { stderr: 'ignore' });
      log(
        `kill ${kills}${slot.readyAt === undefined ? ' (during startup)' : ''}: ` +
          `${driven.reduce((n, d) => n + d.attempts.length, 0)} messages so far, ${errors.length} errors`
      );
    }
    // The checks below need a polling worker; a restart that fails here is the harness's failure.
    for (const slot of workers) {
      await slot.ready;
      restarts.push(slot.readyAt! - slot.spawnedAt);
    }
    stop = true;
  })();

  let maxBlockedMs = 0;
  /** Calls that still failed after the caller made them again (as documented) up to {@link CALLER_TRIES} times. */
  let failedCalls = 0;
  const durations: number[] = [];
  let callsOver30s = 0;
  let killsDuringLongest = 0;
  const slowCalls: { workflowId: string; start: number; ms: number; what: string }[] = [];
  /**
   * Runs a client call and books its messages (`carried`, when it has any) as the call's outcome says: stored when it
   * succeeded, else what its error's `stored` says.
   */
  const timed = async <T>(
    conv: ConversationClient,
    what: string,
    p: () => Promise<T>,
    carried?: { attempts: Attempt[]; messages: readonly unknown[] }
  ): Promise<T | undefined> => {
    // As the client's documentation says: a call that ended unavailable without storing (or not knowing) is made
    // again, the same call (it keeps its sequence number, so it is stored once either way).
    const book = (stored: Attempt['stored']): void => {
      carried?.attempts.push(...carried.messages.map((message) => ({ message, stored })));
    };
    for (let tries = 1; ; tries++) {
      const outcome = await timedOnce(conv, what, p);
      if (outcome.ok) {
        book(true);
        return outcome.result;
      }
      const said = (outcome.err as { stored?: unknown }).stored;
      const stored: Attempt['stored'] = said === true ? true : said === false ? false : 'unknown';
      if (outcome.err instanceof ConversationUnavailableError && stored !== true && tries < CALLER_TRIES) continue;
      book(stored);
      failedCalls++;
      return undefined;
    }
  };
  /** One client call, timed: its result, or the error it ended with. */
  const timedOnce = async <T>(
    conv: ConversationClient,
    what: string,
    p: () => Promise<T>
  ): Promise<{ ok: true; result: T } | { ok: false; err: unknown }> => {
    const start = Date.now();
    const killsBefore = kills;
    try {
      return { ok: true, result: await p() };
    } catch (err) {
      errors.push(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
      return { ok: false, err };
    } finally {
      const blocked = Date.now() - start;
      durations.push(blocked);
      if (blocked > 10_000) {
        log(`a call blocked ${(blocked / 1000).toFixed(1)} s across ${kills - killsBefore} kills`);
        slowCalls.push({ workflowId: conv.workflowId, start, ms: blocked, what });
      }
      if (blocked > 30_000) callsOver30s++;
      if (blocked > maxBlockedMs) killsDuringLongest = kills - killsBefore;
      maxBlockedMs = Math.max(maxBlockedMs, blocked);
    }
  };
  let next = Math.floor(laneRandom() * corpus.length);
  const lane = async (): Promise<void> => {
    while (!stop) {
      const source = corpus[next++ % corpus.length]!;
      const maxUpdatesPerRun = drawRunLength();
      const id = uniqueConversationId(`trial-${source.name.slice(0, 40)}`);
      const conv = new ConversationClient({
        client: env.client,
        conversationId: id,
        taskQueue,
        retryDeadlineMs: 120_000,
        workflowTaskTimeoutMs: options.workflowTaskTimeoutMs ?? 3000,
        settings: {
          budget: options.budget ?? 6000,
          summarizer: { profile: TEST_CHAT_PROFILE },
        },
        limits: {
          summarizeHeartbeatTimeoutMs: 4000,
          summarizeHeartbeatIntervalMs: 1000,
          maxUpdatesPerRun,
        },
      });
      const entry = { id, conv, attempts: [] as Attempt[], last: undefined as unknown[] | undefined };
      driven.push(entry);
      let pending: unknown[] = [];
      let first = true;
      for (const message of source.messages) {
        if (stop) break;
        if (message.role === 'assistant') {
          const batch = pending;
          if (first) startsInFlight++;
          const prepared = await timed(conv, 'prepare', () => conv.prepare(batch), {
            attempts: entry.attempts,
            messages: batch,
          });
          if (first) startsInFlight--;
          first = false;
          if (prepared) entry.last = prepared.messages;
          pending = [];
          await timed(conv, 'record', () => conv.record(message), { attempts: entry.attempts, messages: [message] });
        } else pending.push(message);
      }
    }
  };
  await Promise.all([...Array.from({ length: options.concurrent ?? 8 }, lane), killer]);

  // Checks, with the last worker still running.
  const archive = SqliteArchive.open({ path: join(dir, 'archive.sqlite') });
  let lost = 0;
  let duplicated = 0;
  let uncertain = 0;
  let uncertainStored = 0;
  let doubleFolds = 0;
  let strandedFolds = 0;
  let taskFailures = 0;
  const taskFailureSamples: string[] = [];
  const keep = options.keepFailedHistoriesIn ?? dir;
  let messages = 0;
  const mismatches: string[] = [];
  for (const { id, conv, attempts } of driven) {
    const archived = (await archive.readAll(conv.workflowId)).map((a) => a.message);
    const books = checkArchive(archived, attempts);
    messages += books.stored;
    lost += books.lost;
    duplicated += books.duplicated;
    uncertain += books.uncertain;
    uncertainStored += books.uncertainStored;
    mismatches.push(...books.problems.map((p) => `${id}: ${p}`));
    const stateFolds = await conv.folds();
    const archivedFolds = await archive.folds(conv.workflowId);
    for (let i = 1; i < archivedFolds.length; i++) {
      if (archivedFolds[i]!.number <= archivedFolds[i - 1]!.number) doubleFolds++;
    }
    for (const f of stateFolds) {
      const same = archivedFolds.find((a) => a.number === f.number);
      if (!isDeepStrictEqual(same, f)) mismatches.push(`${id}: fold ${f.number} differs between state and archive`);
    }
    const handle = env.client.workflow.getHandle(conv.workflowId);
    const answered = await timed(conv, 'final prepare', () =>
      conv.prepare([{ role: 'user', content: 'still there?' }])
    );
    if (!answered) mismatches.push(`${id}: did not answer after the trial`);
    else {
      // The client's mirror (what prepare returned) is the workflow's live context, prepared the same way.
      const sendable = await handle.query<{ messages: unknown[] }>('sendable');
      if (!isDeepStrictEqual(sendable.messages, answered.messages)) {
        mismatches.push(`${id}: live context and client mirror disagree`);
      }
      // Once the fold in flight (if any) is done and taken up, no summarize may stay scheduled that the workflow does
      // not know of: the last prepare may start the next background fold, which its state then shows as folding.
      await timed(conv, 'wait for fold', () => conv.waitForFold({ timeoutMs: 20_000 }));
      await timed(conv, 'final prepare', () => conv.prepare([]));
      // State first: with no prepare in between, no summarize can be scheduled after it says none is in flight.
      const folding = (await conv.state()).folding;
      const pendingActivities = (await handle.describe()).raw.pendingActivities ?? [];
      if (pendingActivities.length > 0 && folding === null) {
        strandedFolds++;
        mismatches.push(
          `${id}: ${pendingActivities.length} activity pending while the workflow holds no fold in flight`
        );
      }
    }
    const failures = await taskFailuresInEveryRun(env.client, conv.workflowId, keep);
    taskFailures += failures.length;
    taskFailureSamples.push(...failures);
  }
  const slowCallTimelines: string[] = [];
  for (const call of [...slowCalls].sort((a, b) => b.ms - a.ms).slice(0, 3)) {
    slowCallTimelines.push(await timeline(env.client, call, killedAt));
  }
  for (const worker of workers) worker.child.kill('SIGKILL');
  await archive.close();
  await server.close();
  const sorted = [...durations].sort((a, b) => a - b);
  const percentile = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const line =
    `seed ${seed}, ${workers.length > 1 ? `workers ${workers.length}, ` : ''}kills ${kills} (during fold ${killsDuringFold}, ` +
    `worker startup ${killsDuringStartup}, conversation start ${killsDuringConversationStart}), conversations ${driven.length}, messages ${messages}, ` +
    `lost ${lost}, duplicated ${duplicated}, double folds ${doubleFolds}, stranded folds ${strandedFolds}, task failures ${taskFailures}, ` +
    `client errors ${errors.length} (calls failed after calling again: ${failedCalls}), max blocked ${(maxBlockedMs / 1000).toFixed(1)} s`;
  return {
    seed,
    kills,
    killsDuringFold,
    killsDuringStartup,
    killsDuringConversationStart,
    conversations: driven.length,
    messages,
    lost,
    duplicated,
    uncertain,
    uncertainStored,
    doubleFolds,
    strandedFolds,
    taskFailures,
    taskFailureSamples,
    clientErrors: errors.length,
    failedCalls,
    clientErrorSamples: errors.slice(0, 5),
    mismatches,
    maxBlockedMs,
    calls: durations.length,
    p50BlockedMs: percentile(0.5),
    p99BlockedMs: percentile(0.99),
    callsOver30s,
    killsDuringLongest,
    slowCallTimelines,
    meanRestartMs: restarts.length > 0 ? Math.round(restarts.reduce((a, b) => a + b, 0) / restarts.length) : 0,
    maxRestartMs: Math.max(0, ...restarts),
    line,
  };
}

/**
 * Compares a conversation's archive with what its calls carried. Walking both in order: a message a call stored must
 * come next (else it is lost); one whose outcome was unknown may come next; one refused must not. What remains in the
 * archive, or appears out of turn, is duplicated (or out of order: named in `problems`).
 * @returns the counts and the problems found.
 */
export function checkArchive(
  archived: readonly unknown[],
  attempts: readonly { message: unknown; stored: true | false | 'unknown' }[]
): {
  stored: number;
  lost: number;
  duplicated: number;
  uncertain: number;
  uncertainStored: number;
  problems: string[];
} {
  const out = { stored: 0, lost: 0, duplicated: 0, uncertain: 0, uncertainStored: 0, problems: [] as string[] };
  let at = 0;
  const nextIs = (m: unknown): boolean => at < archived.length && isDeepStrictEqual(archived[at], m);
  for (const [i, { message, stored }] of attempts.entries()) {
    if (stored === 'unknown') out.uncertain++;
    // An unsure message followed by a stored copy of itself, with one copy archived: the stored call holds it.
    const following = attempts[i + 1];
    const heldByNext =
      stored === 'unknown' &&
      following?.stored === true &&
      isDeepStrictEqual(following.message, message) &&
      !(at + 1 < archived.length && isDeepStrictEqual(archived[at + 1], message));
    if (!heldByNext && nextIs(message)) {
      at++;
      if (stored === false) out.problems.push('a message whose call said "not stored" is in the archive');
      else if (stored === 'unknown') out.uncertainStored++;
      else out.stored++;
    } else if (stored === true) {
      out.lost++;
    }
  }
  out.stored += out.uncertainStored;
  out.duplicated = archived.length - at;
  if (out.duplicated > 0) out.problems.push(`${out.duplicated} archived messages beyond (or out of) the calls' order`);
  return out;
}

/**
 * Reads every run of a workflow id (its runs continue as new) for WorkflowTaskFailed events and writes each run that
 * holds one to `dir` as history JSON, for `Worker.runReplayHistory`.
 * @returns one line per failed task: workflow id, run id, cause and message, and the saved file.
 */
async function taskFailuresInEveryRun(client: Client, workflowId: string, dir: string): Promise<string[]> {
  const handle = client.workflow.getHandle(workflowId);
  const runIds = new Set<string>([(await handle.describe()).runId]);
  for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runIds.add(run.runId);
  const found: string[] = [];
  for (const runId of runIds) {
    const run = client.workflow.getHandle(workflowId, runId);
    if ((await workflowTaskFailures(run)) === 0) continue;
    const history = await run.fetchHistory();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${workflowId}-${runId}.json`);
    writeFileSync(file, historyToJSON(history));
    for (const e of history.events ?? []) {
      const failed = e.workflowTaskFailedEventAttributes;
      if (!failed) continue;
      const cause = temporal.api.enums.v1.WorkflowTaskFailedCause[failed.cause ?? 0] ?? String(failed.cause);
      found.push(
        `${workflowId} ${runId} event ${String(e.eventId)}: ${cause}: ${failed.failure?.message ?? ''} (${file})`
      );
    }
  }
  return found;
}

/** @returns one slow call as a line: `+s kill`, `+s EventName` for the kills and history events while it waited. */
async function timeline(
  client: Client,
  call: { workflowId: string; start: number; ms: number; what: string },
  killedAt: readonly number[]
): Promise<string> {
  const at = (ms: number): string => `+${((ms - call.start) / 1000).toFixed(1)}`;
  const marks: { ms: number; text: string }[] = killedAt
    .filter((t) => t >= call.start && t <= call.start + call.ms)
    .map((t) => ({ ms: t, text: `${at(t)} KILL` }));
  for await (const { history } of client.workflow
    .list({ query: `WorkflowId = '${call.workflowId}'` })
    .intoHistories()) {
    for (const e of (history as temporal.api.history.v1.IHistory | undefined)?.events ?? []) {
      const ms = Number(e.eventTime?.seconds ?? 0) * 1000 + Math.floor((e.eventTime?.nanos ?? 0) / 1e6);
      if (ms < call.start - 1000 || ms > call.start + call.ms) continue;
      const name = temporal.api.enums.v1.EventType[e.eventType ?? 0] ?? String(e.eventType);
      marks.push({ ms, text: `${at(ms)} ${name.replace(/^EVENT_TYPE_/, '').toLowerCase()}` });
    }
  }
  marks.sort((a, b) => a.ms - b.ms);
  return `${call.what} on ${call.workflowId}, ${(call.ms / 1000).toFixed(1)} s: ${marks.map((m) => m.text).join(', ')}`;
}

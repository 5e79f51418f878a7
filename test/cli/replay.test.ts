import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { dirname, join as join } from 'node:path';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';
import { CliUsageError } from '../../src/cli/io';
import { runReplay } from '../../src/cli/replay';
import { capture, fileWriter } from '../support/cli';
import { repoRoot, spawnTs } from '../support/processes';

const file = fileWriter('dc-replay-');

// The protobufjs copy @temporalio/proto uses (see src/cli/history-json.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved next to @temporalio/proto on purpose
const { toJson } = require(
  require.resolve('protobufjs/ext/protojson', { paths: [dirname(require.resolve('@temporalio/proto/package.json'))] })
) as { toJson: (type: unknown, message: unknown) => unknown };
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType(
  'temporal.api.history.v1.History'
);

/** A recorded history (test/histories) as the proto JSON `temporal workflow show --output json` writes. */
function recordedHistoryJson(): { events: Record<string, unknown>[] } {
  const bin = readFileSync(join(repoRoot, 'test', 'histories', 'conversation-replay-basic-run1.bin'));
  const history = proto.temporal.api.history.v1.History.decode(bin);
  return toJson(historyType, history) as { events: Record<string, unknown>[] };
}

/** Runs the CLI as a process; one still running after `ms` is killed (then `code` is null). */
async function runCliWithin(
  args: string[],
  ms: number
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  const p = spawnTs('src/cli/main.ts', args, {});
  p.child.stdin!.end();
  const timer = setTimeout(() => p.child.kill('SIGKILL'), ms);
  const code = await p.exit;
  clearTimeout(timer);
  return { code, stdout: p.stdout(), stderr: p.stderr(), ms: Date.now() - started };
}

describe('cli replay', function () {
  this.timeout(120_000);

  it('a history of one bogus event: exit 2, "not a workflow history", and the process ends (it used to hang)', async () => {
    const bogus = file('bogus.json', '{"events":[{"eventId":"1","eventType":"EVENT_TYPE_BOGUS"}]}');
    const r = await runCliWithin(['replay', bogus], 60_000);
    assert.equal(r.code, 2, `${r.code} ${r.stderr.slice(0, 500)}`);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr.trim(),
      /^durable-compaction replay: .*bogus\.json is not a workflow history: event 1 has no known eventType$/
    );
  });

  it('refuses malformed histories before replaying them, naming what is wrong', async () => {
    const good = recordedHistoryJson();
    const events = good.events;
    const cases: [string, unknown, RegExp][] = [
      ['no events', { events: [] }, /no "events" array/],
      ['events not an array', { events: {} }, /no "events" array/],
      ['an event that is not an object', { events: [7] }, /not a workflow history/],
      [
        'a first event that is not the start',
        { events: [{ ...events[1], eventId: '1' }] },
        /first event is not EVENT_TYPE_WORKFLOW_EXECUTION_STARTED/,
      ],
      [
        'a start without its attributes',
        { events: [{ eventId: '1', eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED' }] },
        /event 1 \(EVENT_TYPE_WORKFLOW_EXECUTION_STARTED\) has no workflowExecutionStartedEventAttributes/,
      ],
      ['events out of order', { events: [events[0], events[2], events[1]] }, /event 1 has eventId 3, expected 2/],
      [
        'an unknown type in the middle',
        { events: [events[0], { ...events[1], eventType: 'EVENT_TYPE_NOPE' }, ...events.slice(2)] },
        /event 2 has no known eventType/,
      ],
      [
        'a type whose attributes are missing',
        { events: [events[0], { eventId: '2', eventType: events[1]!.eventType }] },
        /event 2 .* has no/,
      ],
    ];
    for (const [what, json, message] of cases) {
      await assert.rejects(
        runReplay([file(`${what.replace(/\W+/g, '-')}.json`, JSON.stringify(json))], capture()),
        (e: unknown) => e instanceof CliUsageError && message.test(e.message),
        what
      );
    }
    await assert.rejects(
      runReplay(['--timeout-ms', '0', 'x.json'], capture()),
      /--timeout-ms must be a positive integer/
    );
  });

  it('a sound history replays in its own process (exit 0); one given too little time ends with kind "timeout" (exit 1)', async () => {
    const history = file('basic.json', JSON.stringify(recordedHistoryJson()));
    const ok = await runCliWithin(['replay', history], 90_000);
    assert.equal(ok.code, 0, ok.stderr + ok.stdout);
    const verdict = JSON.parse(ok.stdout) as { ok: boolean; events: number; workflowId: string };
    assert.equal(verdict.ok, true);
    assert.equal(verdict.events, recordedHistoryJson().events.length);
    assert.match(verdict.workflowId, /^conversation-replay-basic-/);
    const late = await runCliWithin(['replay', '--timeout-ms', '1', history], 60_000);
    assert.equal(late.code, 1, late.stderr + late.stdout);
    assert.deepEqual(JSON.parse(late.stdout), {
      ok: false,
      workflowId: verdict.workflowId,
      kind: 'timeout',
      error: 'the replay did not finish within 1 ms',
    });
  });
});

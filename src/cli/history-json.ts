/**
 * Reads a workflow history in proto JSON (the Temporal UI's download, `temporal workflow show --output json`).
 * Same conversion as the SDK's `historyFromJSON`, but through the protobufjs copy that `@temporalio/proto` itself
 * uses: with two copies installed side by side (as npm lays out SDK 1.24), the SDK's own helper fails every event
 * with "type must be a Type".
 */
import { dirname } from 'node:path';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

type History = proto.temporal.api.history.v1.History;
type FromJson = (type: unknown, json: unknown, options: Record<string, unknown>) => History | null;

const protoDir = dirname(require.resolve('@temporalio/proto/package.json'));
// eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved next to @temporalio/proto on purpose
const { fromJson } = require(require.resolve('protobufjs/ext/protojson', { paths: [protoDir] })) as {
  fromJson: FromJson;
};
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType(
  'temporal.api.history.v1.History'
);

/** `WorkflowExecutionStarted` → `EVENT_TYPE_WORKFLOW_EXECUTION_STARTED` (older tools wrote the short form). */
function eventTypeName(value: unknown): unknown {
  if (typeof value !== 'string' || value.startsWith('EVENT_TYPE_')) return value;
  return `EVENT_TYPE_${value.replace(/(?!^)([A-Z])/g, '_$1').toUpperCase()}`;
}

/**
 * @returns the history.
 * @throws TypeError when `json` is not a history (no events, or fields that do not parse).
 */
export function historyFromProtoJson(json: unknown): History {
  const events = (json as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) throw new TypeError('expected an object with an "events" array');
  const fixed = {
    events: events.map((e: Record<string, unknown>) => ({ ...e, eventType: eventTypeName(e.eventType) })),
  };
  const history = fromJson(historyType, fixed, { ignoreUnknownFields: true });
  if (history === null) throw new TypeError('not a workflow history');
  return history;
}

/**
 * Checks the shape of a decoded workflow history before the SDK's replayer sees it: the replayer's core panics on a
 * malformed one (an unknown event type, a first event that is not the start) and the process never exits.
 */
import * as proto from '@temporalio/proto';

type History = proto.temporal.api.history.v1.History;

const EventType = proto.temporal.api.enums.v1.EventType;

/** `EVENT_TYPE_WORKFLOW_EXECUTION_STARTED` → `workflowExecutionStartedEventAttributes`, the field its details are in. */
function attributesFieldOf(typeName: string): string {
  const words = typeName.replace(/^EVENT_TYPE_/, '').toLowerCase();
  return `${words.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}EventAttributes`;
}

/**
 * @returns what is wrong with `history` (events numbered 1, 2, 3 …, each of a known type with that type's details,
 *   the first one the workflow's start naming its type), or undefined when its shape is sound.
 */
export function historyShapeProblem(history: History): string | undefined {
  const events = history.events ?? [];
  if (events.length === 0) return 'it has no events';
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (String(e.eventId) !== String(i + 1)) return `event ${i} has eventId ${String(e.eventId)}, expected ${i + 1}`;
    const typeName = typeof e.eventType === 'number' ? EventType[e.eventType] : undefined;
    if (typeName === undefined || e.eventType === EventType.EVENT_TYPE_UNSPECIFIED)
      return `event ${i + 1} has no known eventType`;
    const field = attributesFieldOf(typeName);
    if ((e as unknown as Record<string, unknown>)[field] == null) return `event ${i + 1} (${typeName}) has no ${field}`;
  }
  const started = events[0]!.workflowExecutionStartedEventAttributes;
  if (events[0]!.eventType !== EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED)
    return 'its first event is not EVENT_TYPE_WORKFLOW_EXECUTION_STARTED';
  if (!started?.workflowType?.name) return 'its first event names no workflow type';
  return undefined;
}

/**
 * The start argument and the conversation id. The conversation *is* its workflow: the id is derived from the
 * workflow id (`conversation-<id>`), and a start argument naming another conversation is refused, so no run can
 * write into another conversation's archive. Ids are checked before anything starts (the client checks them in its
 * constructor, the workflow again at start).
 */
import { formatNamed } from '../../core/messages/format-name';
import type { MessageFormat } from '../../core/messages/types';
import type { CarriedState } from './conversation-state';
import { conversationIdOf, conversationIdProblem } from '../../contract/conversation-id';
import { problemOf } from '../../contract/schemas/problem';
import { startFields } from '../../contract/schemas/start';
import { workflowIdPrefix } from '../../contract/definitions';
import { show } from '../../contract/show-value';
import { checkCarried } from './carried-schema';
import { checkProtocol } from '../../contract/protocol-version';

/** A checked start argument. */
export interface StartInput {
  conversationId: string;
  settings?: unknown;
  limits?: unknown;
  format?: MessageFormat;
  carried?: CarriedState;
}

/**
 * Checks the start argument against the workflow id. `conversationId` may be omitted (it is derived from the
 * workflow id); when given it must match.
 * @returns the checked input.
 * @throws Error naming the problem.
 */
export function checkStartInput(input: unknown, workflowId: string): StartInput {
  const fromWorkflow = conversationIdOf(workflowId);
  if (fromWorkflow === undefined) {
    throw new Error(`the workflow id '${workflowId}' must be '${workflowIdPrefix}<conversationId>'`);
  }
  const idProblem = conversationIdProblem(fromWorkflow);
  if (idProblem) throw new Error(idProblem);
  const arg = input === undefined ? {} : input;
  if (typeof arg !== 'object' || arg === null || Array.isArray(arg)) {
    throw new Error(`the start argument must be an object {conversationId?, settings?, limits?}, got ${show(input)}`);
  }
  const a = arg as Record<string, unknown>;
  checkProtocol(a.protocol, 'start');
  const shape = problemOf(startFields, arg, '', 'start');
  if (shape) throw new Error(shape);
  if (a.conversationId !== undefined && a.conversationId !== fromWorkflow) {
    throw new Error(
      `start conversationId ${show(a.conversationId)} does not match the workflow id '${workflowId}' (conversation '${fromWorkflow}')`
    );
  }
  const carried = a.carried === undefined ? undefined : checkCarried(a.carried, fromWorkflow);
  if (carried && a.limits !== undefined) {
    throw new Error('start limits: a continued run keeps the limits in carried.limits; send one or the other');
  }
  return {
    conversationId: fromWorkflow,
    ...(a.settings !== undefined ? { settings: a.settings } : {}),
    ...(a.limits !== undefined ? { limits: a.limits } : {}),
    ...(a.format !== undefined ? { format: formatNamed(a.format)! } : {}),
    ...(carried !== undefined ? { carried } : {}),
  };
}

/**
 * Checks of the pinned messages a client sends: `settings.rules` (strings kept verbatim through every fold) and the
 * `pin` flag of an appended message. How they are kept is the workflow's business
 * (src/workflows/conversation/pinned-messages.ts).
 */
import { show } from './validate-plan';
import { parsed } from './schemas/problem';
import { rulesSchema } from './schemas/rules';

/**
 * Checks `settings.rules` against {@link rulesSchema}.
 * @returns the rules, trimmed (by the schema).
 * @throws Error naming the problem and the rule's path (`rules[2] …`; the caller wraps it in its own error class).
 */
export function checkRules(v: unknown): string[] {
  return parsed(rulesSchema, v, '', (message) => new Error(message), 'rules');
}

/** Roles (chat, Responses) and typed-message types a pin is accepted on: what a rule is said in. */
const PINNABLE_ROLES = ['user', 'system', 'developer'];
const PINNABLE_TYPED_MESSAGE_TYPES = ['user', 'instructions', 'context'];

/**
 * Checks one message's `pin` field (state-independent, for the append validator).
 * @returns a problem, or undefined when the message has no `pin` or a valid one.
 */
export function pinFlagProblem(msg: Record<string, unknown>): string | undefined {
  if (!('pin' in msg)) return undefined;
  if (typeof msg.pin !== 'boolean') return `pin must be true or false, got ${show(msg.pin)}`;
  if (msg.pin && !isPinnable(msg)) {
    return `pin is accepted on a user, system or developer message only (a rule the model must keep), not on ${show(msg.role ?? msg.type)}`;
  }
  return undefined;
}

function isPinnable(msg: Record<string, unknown>): boolean {
  if (typeof msg.role === 'string') return PINNABLE_ROLES.includes(msg.role) && !('tool_calls' in msg);
  return typeof msg.type === 'string' && PINNABLE_TYPED_MESSAGE_TYPES.includes(msg.type);
}

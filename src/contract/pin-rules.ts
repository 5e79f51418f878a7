/**
 * Checks of the pins a client sends: `settings.rules` (strings kept verbatim through every fold) and the `pin` flag
 * of an appended message. How pins and rules are kept is the workflow's business (src/workflows/conversation/pins.ts).
 */
import { show } from './validate-plan';

/** Most rules in `settings.rules`. */
export const MAX_RULES = 64;
/** Longest rule, characters. */
export const MAX_RULE_CHARS = 2000;
/** Most characters of all rules together. */
export const MAX_RULES_CHARS = 16_384;

/**
 * Checks `settings.rules`.
 * @returns the rules (trimmed copies).
 * @throws Error naming the problem (the caller wraps it in its own error class).
 */
export function checkRules(v: unknown): string[] {
  if (!Array.isArray(v)) throw new Error(`rules must be an array of strings, got ${show(v)}`);
  if (v.length > MAX_RULES) throw new Error(`rules holds at most ${MAX_RULES} rules, got ${v.length}`);
  let total = 0;
  return v.map((rule: unknown, i) => {
    if (typeof rule !== 'string') throw new Error(`rules[${i}] must be a string, got ${show(rule)}`);
    const text = rule.trim();
    if (text === '') throw new Error(`rules[${i}] must not be empty`);
    if (text.length > MAX_RULE_CHARS) {
      throw new Error(`rules[${i}] is ${text.length} characters long, at most ${MAX_RULE_CHARS}`);
    }
    total += text.length;
    if (total > MAX_RULES_CHARS) throw new Error(`rules are over ${MAX_RULES_CHARS} characters together`);
    return text;
  });
}

/** Roles (chat, Responses) and typed-message types a pin is accepted on: what a rule is said in. */
const PINNABLE_ROLES = ['user', 'system', 'developer'];
const PINNABLE_TYPED_MESSAGE_TYPES = ['user', 'instructions', 'context'];

/**
 * Checks one message's `pin` field (state-independent, for the append validator).
 * @returns a problem, or undefined when the message has no `pin` or a valid one.
 */
export function pinProblem(msg: Record<string, unknown>): string | undefined {
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

/**
 * `settings.rules`, the strings kept verbatim through every fold: their type, their bounds with each refusal, and
 * their JSON Schema, from one schema. Each rule is trimmed once, by the schema, and measured as it is stored.
 */
import * as z from 'zod/v4-mini';
import { says } from './leaves';

/** Most rules in `settings.rules`. */
export const MAX_RULES = 64;
/** Longest rule, characters, once trimmed. */
export const MAX_RULE_CHARS = 2000;
/** Most characters of all rules together, once trimmed. */
export const MAX_RULES_CHARS = 16_384;

/** @returns the characters of all rules together (the rules as the schema leaves them: trimmed). */
const totalChars = (rules: readonly string[]): number => rules.reduce((sum, rule) => sum + rule.length, 0);

/**
 * The JSON Schema's form of the length bound: a JSON Schema `maxLength` would measure the string as sent, blanks
 * around it included, and refuse rules the check accepts; this pattern allows blanks on either side of at most
 * {@link MAX_RULE_CHARS} characters (`\s` is the set of characters `String.prototype.trim` removes).
 */
export const RULE_PATTERN = `^\\s*[\\s\\S]{0,${MAX_RULE_CHARS}}\\s*$`;

/**
 * One rule: a string with more than blanks, at most {@link MAX_RULE_CHARS} characters once trimmed; parsing returns
 * it trimmed. The bound is a refinement (no `maxLength` in the JSON Schema) and {@link RULE_PATTERN} states it there.
 */
const rule = z
  .string(says('must be a string'))
  .check(
    z.trim(),
    z.minLength(1, says('must not be empty or blank')),
    z.refine(
      (trimmed) => trimmed.length <= MAX_RULE_CHARS,
      says(`must be at most ${MAX_RULE_CHARS} characters once trimmed`)
    )
  )
  .register(z.globalRegistry, { pattern: RULE_PATTERN });

/** `settings.rules`: at most {@link MAX_RULES} rules of at most {@link MAX_RULES_CHARS} characters together. */
export const rulesSchema = z.array(rule, says('must be an array of strings')).check(
  z.maxLength(MAX_RULES, says(`must hold at most ${MAX_RULES} rules`)),
  z.refine((rules) => totalChars(rules) <= MAX_RULES_CHARS, {
    error: (issue) =>
      `must be at most ${MAX_RULES_CHARS} characters together once trimmed (these are ${totalChars(issue.input as string[])})`,
  })
);

/**
 * `settings.rules`, the strings kept verbatim through every fold: their type, their bounds with each refusal, and
 * their JSON Schema, from one schema. Each rule is measured once trimmed, as it is stored.
 */
import * as z from 'zod/v4-mini';
import { says } from './leaves';

/** Most rules in `settings.rules`. */
export const MAX_RULES = 64;
/** Longest rule, characters, once trimmed. */
export const MAX_RULE_CHARS = 2000;
/** Most characters of all rules together, once trimmed. */
export const MAX_RULES_CHARS = 16_384;

/** @returns the characters of all rules together, once trimmed. */
const totalChars = (rules: readonly string[]): number => rules.reduce((sum, rule) => sum + rule.trim().length, 0);

/** One rule: a string with more than blanks, at most {@link MAX_RULE_CHARS} characters once trimmed. */
const rule = z
  .string(says('must be a string'))
  .check(
    z.trim(),
    z.minLength(1, says('must not be empty or blank')),
    z.maxLength(MAX_RULE_CHARS, says(`must be at most ${MAX_RULE_CHARS} characters once trimmed`))
  );

/** `settings.rules`: at most {@link MAX_RULES} rules of at most {@link MAX_RULES_CHARS} characters together. */
export const rulesSchema = z.array(rule, says('must be an array of strings')).check(
  z.maxLength(MAX_RULES, says(`must hold at most ${MAX_RULES} rules`)),
  z.refine((rules) => totalChars(rules) <= MAX_RULES_CHARS, {
    error: (issue) =>
      `must be at most ${MAX_RULES_CHARS} characters together once trimmed (these are ${totalChars(issue.input as string[])})`,
  })
);

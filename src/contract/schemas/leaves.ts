/**
 * The building blocks of the contract's schemas (zod v4-mini, which runs in the workflow sandbox): each leaf carries
 * the predicate its refusal states (`must be …`), so {@link problemOf} can name the field, the expectation and the
 * value received in one sentence, and `z.toJSONSchema` gives the protocol's JSON Schema from the same object.
 */
import * as z from 'zod/v4-mini';

/** An error option whose message is `predicate` (the part of the refusal after the field's name). */
export const says = (predicate: string) => ({ error: () => predicate });

/** @returns an integer from `min` to `max` (inclusive); the refusal names both. */
export function intFrom(min: number, max: number) {
  const predicate = says(`must be an integer from ${min} to ${max}`);
  return z.int(predicate).check(z.gte(min, predicate), z.lte(max, predicate));
}

/** @returns a non-negative safe integer. */
export function count() {
  const predicate = says('must be a non-negative integer');
  return z.int(predicate).check(z.gte(0, predicate));
}

/** @returns a string of at most `max` characters, without NUL (refused with its own predicate). */
export function text(max: number) {
  return z.string(says('must be a string')).check(
    z.maxLength(max, says(`must be at most ${max} characters`)),
    // eslint-disable-next-line no-control-regex -- NUL is the character refused
    z.regex(/^[^\u0000]*$/, says('must not contain NUL'))
  );
}

/**
 * @param predicate what the refusal says when the value is not an object (`must be an object {…}`).
 * @returns an object of exactly these keys (an unknown key is named with a typo hint by `problemOf`).
 */
export function exactly<Shape extends z.core.$ZodLooseShape>(shape: Shape, predicate: string) {
  return z.strictObject(shape, says(predicate));
}

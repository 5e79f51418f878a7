/**
 * The building blocks of the contract's schemas (zod v4-mini, which runs in the workflow sandbox): each leaf carries
 * the predicate its refusal states (`must be …`), so {@link problemOf} can name the field, the expectation and the
 * value received in one sentence, and `z.toJSONSchema` gives the protocol's JSON Schema from the same object.
 */
import * as z from 'zod/v4-mini';

/** An error option whose message is `predicate` (the part of the refusal after the field's name). */
export const says = (predicate: string) => ({ error: () => predicate });

/**
 * @returns `schema` checked to match `pattern`, stated as `pattern` in the JSON Schema. Not `z.regex`: that check
 * writes the RegExp's `lastIndex` on every parse, and the worker deep-freezes these schemas when it preloads them
 * (`workflowPreloadModules`); a pattern that is neither global nor sticky is only read by `test`.
 * @throws Error at module load when `pattern` is global or sticky.
 */
export function matching<S extends z.ZodMiniString>(schema: S, pattern: RegExp, error: ReturnType<typeof says>): S {
  if (pattern.global || pattern.sticky) throw new Error(`schema pattern ${pattern} must be neither global nor sticky`);
  // Refused as `z.regex` refuses (an `invalid_format` issue), so the message shows the value received.
  const check = z.check<string>((ctx) => {
    if (pattern.test(ctx.value)) return;
    const { value: input } = ctx;
    ctx.issues.push({
      code: 'invalid_format',
      format: 'regex',
      pattern: String(pattern),
      input,
      message: error.error(),
    });
  });
  const checked: z.ZodMiniString = schema.check(check);
  return checked.register(z.globalRegistry, { pattern: pattern.source }) as S;
}

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
  const bounded = z.string(says('must be a string')).check(z.maxLength(max, says(`must be at most ${max} characters`)));
  // eslint-disable-next-line no-control-regex -- NUL is the character refused
  return matching(bounded, /^[^\u0000]*$/, says('must not contain NUL'));
}

/**
 * @param predicate what the refusal says when the value is not an object (`must be an object {…}`).
 * @returns an object of exactly these keys (an unknown key is named with a typo hint by `problemOf`).
 */
export function exactly<Shape extends z.core.$ZodLooseShape>(shape: Shape, predicate: string) {
  return z.strictObject(shape, says(predicate));
}

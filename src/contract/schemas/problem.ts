/**
 * Turns a schema's refusal into the contract's one-sentence message: `<where>: <field> must be <expected>, got
 * <value>`, or `<where>: unknown key '<field>' (did you mean …?); known: …`. The first problem is reported; an
 * unknown key before any other, so a typo is named rather than the missing field it hides.
 */
import * as z from 'zod/v4-mini';
import { unknownKeyMessage } from '../../core/input/known-keys';
import { show } from '../show-value';

type Path = readonly PropertyKey[];

/** @returns the path as the messages write it: `reported.usage.inputTokens`, `messages[3]`. */
export function pathName(path: Path): string {
  return path.reduce<string>(
    (name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)),
    ''
  );
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<PropertyKey, unknown> | undefined)?.[key], value);
}

/** The object schema at `path`, through optional, nullable and array wrappers. */
function shapeAt(schema: z.core.$ZodType, path: Path): readonly string[] {
  let def = schema._zod.def as unknown as Record<string, unknown>;
  const unwrap = () => {
    while ('innerType' in def) def = (def.innerType as z.core.$ZodType)._zod.def as unknown as Record<string, unknown>;
  };
  for (const key of path) {
    unwrap();
    const next =
      typeof key === 'number' ? def.element : (def.shape as Record<string, unknown> | undefined)?.[key as string];
    if (!next) return [];
    def = (next as z.core.$ZodType)._zod.def as unknown as Record<string, unknown>;
  }
  unwrap();
  return Object.keys((def.shape as object | undefined) ?? {});
}

/** What the refused value shows in a message: a list or text refused for its size by its length, anything else by `show`. */
function gotOf(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'too_big' || issue.code === 'too_small' || issue.code === 'custom') {
    if (Array.isArray(value)) return `${value.length} entries`;
    if (typeof value === 'string') return `${value.length} characters`;
  }
  return show(value);
}

/**
 * Checks `value` against `schema`.
 * @param where what the value is, for the message (`append input`); '' for none.
 * @param at the path of the value itself, prefixed to each field's (`limits`: `limits.maxHistoryBytes`); '' for none.
 * @returns the message naming the first problem, or undefined when the value fits.
 */
export function problemOf(schema: z.core.$ZodType, value: unknown, where: string, at = ''): string | undefined {
  const result = z.safeParse(schema, value);
  if (result.success) return undefined;
  const issues = result.error.issues;
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
  const inner = pathName(issue.path);
  const field = at && inner ? `${at}${inner.startsWith('[') ? '' : '.'}${inner}` : at || inner;
  const prefix = where ? `${where}${field ? ': ' : ' '}` : '';
  const refused = valueAt(value, issue.path);
  if (issue.code === 'unrecognized_keys') {
    const keyPrefix = where ? `${where}: ` : '';
    return `${keyPrefix}${unknownKeyMessage(refused as object, shapeAt(schema, issue.path), field) ?? issue.message}`;
  }
  return `${prefix}${field}${field ? ' ' : ''}${issue.message}, got ${gotOf(issue, refused)}`;
}

/**
 * Checks a handler's arguments: one argument is checked as itself, several as the list (so a schema of "no argument"
 * refuses a second one too).
 * @returns the message naming the first problem, or undefined when the arguments fit.
 */
export function argumentsProblem(schema: z.core.$ZodType, args: readonly unknown[], where: string): string | undefined {
  return problemOf(schema, args.length > 1 ? args : args[0], where);
}

/**
 * @returns the value as the schema parses it (rules trimmed, say), when it fits.
 * @throws the error `refusal` makes of the message naming the first problem.
 */
export function parsed<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  where: string,
  refusal: (message: string) => Error,
  at = ''
): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw refusal(problemOf(schema, value, where, at)!);
  return result.data;
}

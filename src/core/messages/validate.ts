/**
 * Input validation for caller transcripts. Every problem is reported as a {@link TranscriptValidationError} naming the
 * element index and what is wrong, so a caller (or the CLI) can point at the offending message.
 */

/** The kinds of malformed input the engine reports. */
export type ValidationProblemKind =
  | 'not-object'
  | 'missing-role'
  | 'unknown-role'
  | 'wrong-type'
  | 'arguments-not-string'
  | 'unknown-call'
  | 'answered-twice'
  | 'unanswered-call'
  | 'duplicate-id'
  | 'format-conflict';

/** A malformed transcript element. `message` names both the index and the problem. */
export class TranscriptValidationError extends Error {
  override readonly name = 'TranscriptValidationError';
  constructor(
    /** Index of the offending element in the caller's array. */
    readonly index: number,
    /** Human-readable description of what is wrong. */
    readonly problem: string,
    /** Machine-readable kind of the problem. */
    readonly kind: ValidationProblemKind
  ) {
    super(`message ${index}: ${problem}`);
  }
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The element as an object.
 * @throws TranscriptValidationError (`not-object`) when it is not one.
 */
export function expectRecord(raw: unknown, index: number): Record<string, unknown> {
  if (!isRecord(raw)) {
    const found = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    throw new TranscriptValidationError(index, `expected an object, found ${found}`, 'not-object');
  }
  return raw;
}

/**
 * An element that must be an object whose `role` is one of `roles`: how a role-keyed adapter starts reading one.
 * @returns the element and its role.
 * @throws TranscriptValidationError `not-object` when it is no object; `missing-role` when the role is absent;
 *   `unknown-role` naming it and `hint` otherwise.
 */
export function expectRoleMessage<R extends string>(
  raw: unknown,
  index: number,
  roles: readonly R[],
  hint: string
): { msg: Record<string, unknown>; role: R } {
  const msg = expectRecord(raw, index);
  const role = msg.role;
  if (role === undefined) throw new TranscriptValidationError(index, "missing field 'role'", 'missing-role');
  if (typeof role !== 'string' || !(roles as readonly string[]).includes(role)) {
    const found = typeof role === 'string' ? `'${role}'` : describe(role);
    throw new TranscriptValidationError(index, `unknown role ${found} (${hint})`, 'unknown-role');
  }
  return { msg, role: role as R };
}

/**
 * A field that must be a string when present.
 * @returns the string, or undefined when the field is absent (or null, when `nullable`).
 * @throws TranscriptValidationError (`wrong-type`) for any other value.
 */
export function optionalString(
  obj: Record<string, unknown>,
  field: string,
  index: number,
  nullable = false
): string | undefined {
  const value = obj[field];
  if (value === undefined || (nullable && value === null)) return undefined;
  if (typeof value !== 'string') {
    throw new TranscriptValidationError(
      index,
      `field '${field}' must be a string, found ${describe(value)}`,
      'wrong-type'
    );
  }
  return value;
}

/**
 * A field that must be a string.
 * @throws TranscriptValidationError (`wrong-type`) when absent or not a string.
 */
export function requireString(obj: Record<string, unknown>, field: string, index: number, where = ''): string {
  const value = obj[field];
  if (typeof value !== 'string') {
    const at = where ? `${where}.${field}` : field;
    throw new TranscriptValidationError(
      index,
      value === undefined ? `missing field '${at}'` : `field '${at}' must be a string, found ${describe(value)}`,
      'wrong-type'
    );
  }
  return value;
}

/** A short description of a JSON value's type for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** Type guards for plain JSON read back from storage (fold records, carried state). */

/** @returns true for a plain object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** @returns true for an integer ≥ 0. */
export function isCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

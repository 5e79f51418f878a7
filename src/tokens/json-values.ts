/** Small readers of JSON values shared by the per-format pricers. */

/** A JSON object. */
export type Obj = Record<string, unknown>;

/** True for a plain object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** @returns a string as it is, anything else as its JSON text ('' for undefined). */
export const json = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

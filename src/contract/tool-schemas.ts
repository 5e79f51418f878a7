/**
 * The tool definitions an agent sends with every request (`tools` of Chat Completions or Responses). They cost
 * tokens on every request, so the conversation counts them (cookbook §7) into every budget decision. Checked
 * strictly and bounded: they are workflow state, carried across continue-as-new.
 */
import { utf8Length } from './bytes';

/** Most tool definitions accepted. */
export const MAX_TOOLS = 128;
/** Largest JSON of all tool definitions together, in bytes (a large agent's schemas are 20–40 KB). */
export const MAX_TOOLS_BYTES = 131_072;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks tool definitions: an array of at most {@link MAX_TOOLS} objects with a string `type`; a function tool has a
 * non-empty `name` (Responses: on the tool; Chat: in `function`) and, when given, object `parameters`; at most
 * {@link MAX_TOOLS_BYTES} bytes of JSON in all.
 * @returns undefined when valid, else the problem, naming the field (`field[i].…`).
 */
export function toolsProblem(value: unknown, field: string): string | undefined {
  if (!Array.isArray(value)) return `${field} must be an array of tool definitions, got ${describe(value)}`;
  if (value.length > MAX_TOOLS) return `${field} has ${value.length} tools, more than ${MAX_TOOLS}`;
  for (let i = 0; i < value.length; i++) {
    const tool: unknown = value[i];
    const at = `${field}[${i}]`;
    if (!isObj(tool)) return `${at} must be an object, got ${describe(tool)}`;
    if (typeof tool.type !== 'string' || tool.type === '') return `${at}.type must be a non-empty string`;
    if (tool.type !== 'function') continue;
    const fn = isObj(tool.function) ? tool.function : tool;
    const where = fn === tool ? at : `${at}.function`;
    if (tool.function !== undefined && !isObj(tool.function)) return `${at}.function must be an object`;
    if (typeof fn.name !== 'string' || fn.name.trim() === '') return `${where}.name must be a non-empty string`;
    if (fn.description !== undefined && typeof fn.description !== 'string')
      return `${where}.description must be a string`;
    if (fn.parameters !== undefined && !isObj(fn.parameters)) return `${where}.parameters must be an object`;
  }
  const bytes = utf8Length(JSON.stringify(value));
  if (bytes > MAX_TOOLS_BYTES) return `${field} is ${bytes} bytes of JSON, over the ${MAX_TOOLS_BYTES}-byte limit`;
  return undefined;
}

/** @returns true when both lists of tool definitions are the same JSON. */
export function sameTools(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

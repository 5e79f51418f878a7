/**
 * Tool-schema pricing, cookbook §7 `num_tokens_for_tools`: per function `func_init` + tokens of
 * `name:description` (trailing "." dropped); if it has properties, `prop_init` once and per property `prop_key` +
 * tokens of `name:type:description`; per enum `enum_init` + per item `enum_item` + the item's tokens; `func_end` once.
 */
import { TokenInputError } from './errors';
import type { TextCount } from './message-tokens';
import type { ToolSchemaConstants } from './wire-constants';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const dropDot = (s: string): string => (s.endsWith('.') ? s.slice(0, -1) : s);
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/**
 * Prices a list of tool schemas (Chat `{type:'function', function:{…}}` or Responses `{type:'function', name, …}`).
 * Beyond §7: a property's other schema keywords (nested `properties`, `items`, …) are priced as rendered JSON, and a
 * non-function tool as its rendered JSON, so a schema is never priced below what it carries.
 * @returns 0 for an empty list.
 * @throws TokenInputError when a tool is not an object.
 */
export function priceTools(tools: readonly unknown[], count: TextCount, k: ToolSchemaConstants): number {
  if (tools.length === 0) return 0;
  let total = 0;
  tools.forEach((tool, i) => {
    if (!isObj(tool)) throw new TokenInputError(`tools[${i}] must be an object`);
    const fn = isObj(tool.function) ? tool.function : tool.type === 'function' ? tool : undefined;
    if (!fn) {
      total += count(JSON.stringify(tool));
      return;
    }
    total += k.funcInit + count(`${text(fn.name)}:${dropDot(text(fn.description))}`);
    const params = isObj(fn.parameters) ? fn.parameters : {};
    const props = isObj(params.properties) ? params.properties : {};
    const keys = Object.keys(props);
    if (keys.length === 0) return;
    total += k.propInit;
    for (const key of keys) {
      const prop = isObj(props[key]) ? props[key] : {};
      const { type, description, enum: items, ...rest } = prop;
      total += k.propKey;
      if (Array.isArray(items)) {
        total += k.enumInit;
        for (const item of items) total += k.enumItem + count(text(item));
      }
      total += count(`${key}:${text(type)}:${dropDot(text(description))}`);
      if (Object.keys(rest).length > 0) total += count(JSON.stringify(rest));
    }
  });
  return total + k.funcEnd;
}

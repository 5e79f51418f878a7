/**
 * Whether a tool result shows a newer state of the record an earlier one showed: both are JSON objects, the later one
 * has every leaf of the earlier one, at least one leaf changed, and no leaf that names the record (an id, a key, a
 * name) did ("{"customer":{"shipping_address":"14 Elm Row"}}" → "{"event":"address_updated","customer":
 * {"shipping_address":"2 Harbour Lane"}}", not two customers read one after the other).
 */

// Leaf keys that say which record it is, not what state it is in.
const IDENTITY = /^(?:id|uuid|guid|key|name|slug|email|sku|ref)$|[_-]id$|[a-z]Id$/i;

/** @returns each leaf's key path (`a.b.0.c`) and its value as JSON; undefined when `text` is not a JSON object */
function leaves(text: string): Map<string, string> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim());
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const out = new Map<string, string>();
  const walk = (value: unknown, path: string): void => {
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
    } else out.set(path, JSON.stringify(value));
  };
  walk(parsed, '');
  return out;
}

/**
 * @param newer what the later tool result showed (its call left out)
 * @param older what the earlier one showed
 * @returns `undefined` when either is not a JSON object; else whether `newer` restates every leaf of `older`, with a
 *   new value at one or more and none naming another record
 */
export function showsNewStateOfRecord(newer: string, older: string): boolean | undefined {
  const [a, b] = [leaves(older), leaves(newer)];
  if (!a || !b) return undefined;
  let changed = false;
  for (const [path, value] of a) {
    const now = b.get(path);
    if (now === undefined) return false;
    if (now === value) continue;
    if (IDENTITY.test(path.slice(path.lastIndexOf('.') + 1))) return false;
    changed = true;
  }
  return changed;
}

/**
 * Unknown-key checks with typo hints, shared by the settings, start-input and configuration validators. Keys are
 * checked as own properties, so `constructor`, `__proto__` and `toString` are unknown keys like any other (an `in`
 * check would accept them through the prototype chain).
 */

/** Keys JSON or YAML input may carry that name a prototype member; never accepted as data keys. */
export const PROTOTYPE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * The first own key of `obj` not in `known`, with a hint when it looks like a typo of a known key.
 * @returns a message such as `unknown key 'budgte' (did you mean 'budget'?; known: …)`, or undefined when all are known.
 */
export function unknownKeyMessage(obj: object, known: readonly string[], path: string): string | undefined {
  for (const key of Object.keys(obj)) {
    if (known.includes(key) && !PROTOTYPE_KEYS.includes(key)) continue;
    const at = path ? `${path}.${key}` : key;
    const hint = closest(key, known);
    return `unknown key '${at}'${hint ? ` (did you mean '${hint}'?)` : ''}; known: ${known.join(', ')}`;
  }
  return undefined;
}

/** @returns the known key within edit distance 2 of `key` (case-insensitive), if any. */
export function closest(key: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/** Levenshtein distance, capped work for short keys (keys longer than 64 characters are never close). */
function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Number.MAX_SAFE_INTEGER;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Checks the nesting depth of a JSON value without recursion (a 10 000-level value must not exhaust the stack of
 * whoever validates it).
 * @returns the path of the first value nested deeper than `maxDepth`, or undefined when none is.
 */
export function tooDeep(value: unknown, maxDepth: number): string | undefined {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= maxDepth) return path || '(top)';
    const entries = Array.isArray(v) ? v.map((x, i) => [`[${i}]`, x] as const) : Object.entries(v);
    for (const [k, child] of entries) {
      if (typeof child === 'object' && child !== null) {
        stack.push({ v: child, depth: depth + 1, path: Array.isArray(v) ? `${path}${k}` : `${path}.${k}` });
      }
    }
  }
  return undefined;
}

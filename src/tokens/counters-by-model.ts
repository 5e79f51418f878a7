import { createTokenCounter, type TokenCounter } from './counter';

/**
 * One counter per model for the life of the process: a counter's per-message cache is what makes a turn cost
 * O(new bytes), so every activity of a worker should share it.
 * @param create builds the counter for a model (called once per model). @default `createTokenCounter({ model })`
 * @returns `counterFor(model)`, memoised.
 */
export function countersByModel(
  create: (model: string) => TokenCounter = (model) => createTokenCounter({ model })
): (model: string) => TokenCounter {
  const counters = new Map<string, TokenCounter>();
  return (model) => {
    let counter = counters.get(model);
    if (!counter) counters.set(model, (counter = create(model)));
    return counter;
  };
}

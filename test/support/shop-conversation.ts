/** A shop-assistant conversation whose user turns are large enough to reach a small budget in a few turns. */

export const system = { role: 'system', content: 'You are a helpful shop assistant.' };

/** @returns a user turn of roughly 280 tokens, different for every `i`. */
export const user = (i: number) => ({
  role: 'user',
  content:
    `Request ${i}: ` + `please check the shipping status of order ${1000 + i} and tell me when it arrives. `.repeat(18),
});

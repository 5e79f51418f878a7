/** A small chat conversation and the fold planned on it, shared by the pure tests of the fold step and pending folds. */
import { normalize } from '../../../src/core/messages/normalize';
import { planFold } from '../../../src/core/plan';

export const system = { role: 'system', content: 'Be brief.' };

/** @returns turn `i`: a user question and an assistant answer of about 60 words each. */
export const turn = (i: number) => [
  { role: 'user', content: `question ${i} `.repeat(30) },
  { role: 'assistant', content: `answer ${i} `.repeat(30) },
];

/** The system prompt and eight turns. */
export const raws = [system, ...Array.from({ length: 8 }, (_, i) => turn(i)).flat()];
export const transcript = normalize(raws, 'chat');
/** A rough count per message (JSON length / 4). */
export const tokens = raws.map((r) => Math.ceil(JSON.stringify(r).length / 4));
/** The `items` policy keeping the last four, at a budget of 600. */
export const plan = planFold({ transcript, tokens, options: { budget: 600, policy: 'items', keepLast: 4 } });

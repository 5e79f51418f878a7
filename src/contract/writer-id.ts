/** Writer ids: what one client instance names itself in its appends (`writer`) and the `writerSeq` query. */
import { show } from './show-value';

/** Writer ids: 1–128 characters, ASCII letters, digits and `. _ : @ -` (they become part of update ids). */
export const WRITER_ID_PATTERN = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * @param name how the caller calls the field (`writer` in an append input, `writerId` in the client's options).
 * @returns why `id` is not a valid writer id, or undefined when it is.
 */
export function writerIdProblem(id: unknown, name: string): string | undefined {
  if (typeof id === 'string' && WRITER_ID_PATTERN.test(id)) return undefined;
  return `${name} must be 1-128 characters of letters, digits and . _ : @ -, got ${show(id)}`;
}

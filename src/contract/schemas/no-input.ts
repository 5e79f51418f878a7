/**
 * The argument of the handlers that take none (`clear`, `close`, `delete` and the queries but `writerSeq`): nothing,
 * or `null`. One sent anyway is a caller's mistake, refused before anything changes.
 */
import * as z from 'zod/v4-mini';
import { says } from './leaves';

/** Nothing (`undefined` or `null`). */
export const noArgument = z.optional(z.null(says('takes no input')));

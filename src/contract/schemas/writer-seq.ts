/** The `writerSeq` query's argument: a writer id (see `WRITER_ID_PATTERN`). */
import * as z from 'zod/v4-mini';
import { WRITER_ID_PATTERN } from '../writer-id';
import { matching, says } from './leaves';

const predicate = says('must be 1-128 characters of letters, digits and . _ : @ -');

/** A writer id. */
export const writerId = matching(z.string(predicate), WRITER_ID_PATTERN, predicate);

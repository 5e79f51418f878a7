/**
 * The fold settings a settings patch may set (`foldMode`, `prefoldRatio`, `maxFoldWaitMs`): their bounds with each
 * refusal and their JSON Schema, from one schema. Other keys of the patch are checked elsewhere, so they pass here.
 */
import * as z from 'zod/v4-mini';
import { intFrom, says } from './leaves';

const ratio = says('must be a number in (0, 1]');

/** The fold settings of a settings patch, each optional (absent: unchanged). */
export const foldSettingsPatch = z.object({
  foldMode: z.optional(z.enum(['background', 'blocking'], says('must be one of background, blocking'))),
  prefoldRatio: z.optional(z.number(ratio).check(z.gt(0, ratio), z.lte(1, ratio))),
  maxFoldWaitMs: z.optional(intFrom(0, 600_000)),
});

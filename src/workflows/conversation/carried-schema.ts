/**
 * The `carried` start argument: the state a previous run handed over through continue-as-new. Any caller can send
 * one with update-with-start, so it is checked before anything runs: its shape against {@link carriedSchema} (zod
 * v4-mini, the contract's leaves and messages: `carried.live[0].tokens must be a non-negative integer, got …`), then
 * what no schema says: that it is this conversation's, its settings as strictly as a `configure` patch (ranges and
 * how they fit together), its fold limits together, and its state ledger within its bounds. A problem is an
 * `InvalidStart` naming the field. The state is workflow-internal: it is not part of the contract, and its JSON
 * Schema is not published.
 */
import * as z from 'zod/v4-mini';
import { defaultSettings, mergeSettings } from '../../contract/settings';
import { foldLimitsProblem } from '../../contract/fold-limits';
import { count, says } from '../../contract/schemas/leaves';
import { runLimitsFields } from '../../contract/schemas/limits';
import { problemOf } from '../../contract/schemas/problem';
import { formatNames } from '../../contract/schemas/start';
import { show } from '../../contract/show-value';
import { carriedLedgerProblem } from '../../core/fold/state-ledger/carried-check';
import type { CarriedState } from './carried-state';

const bool = () => z.boolean(says('must be true or false'));
const object = (predicate: string) => z.looseObject({}, says(predicate));
const list = <T extends z.core.$ZodType>(element: T) => z.array(element, says('must be an array'));
const strings = () => list(z.string(says('must be a string')));
/** An integer from `min`, refused with `predicate`. */
const atLeast = (min: number, predicate: string) => z.int(says(predicate)).check(z.gte(min, says(predicate)));

const liveEntry = z
  .looseObject(
    {
      uid: z.string(says('must be a non-empty string')).check(z.minLength(1, says('must be a non-empty string'))),
      rev: count(),
      tokens: count(),
      seq: z.nullable(atLeast(0, 'must be null or a non-negative integer')),
      raw: object('must be a message object'),
      pinned: z.optional(bool()),
      ref: z.optional(z.strictObject({ bytes: count() }, says('must be {bytes} (a non-negative integer)'))),
    },
    says('must be a live entry object')
  )
  .check(
    z.refine((e) => e.ref === undefined || e.seq !== null, {
      ...says('needs an archived message (seq is null)'),
      path: ['ref'],
    })
  );

/** `[writer, lastSeq, hash?]`. */
const writer = z.tuple(
  [z.string(says('must be a string')), count(), z.optional(z.string(says('must be a string')))],
  says('must be [writer, lastSeq, hash?]')
);

/**
 * The shape of a carried state (`CarriedState`, `carried-state.ts`): every field the 1.0 baseline carries, each live
 * entry, writer, fold record and sent context; the parts other code owns (back-off, calibration, a pending fold) as
 * objects. Unknown fields are let through, as a newer run may carry more.
 */
export const carriedSchema = z.looseObject(
  {
    conversationId: z.string(says('must be a string')),
    settings: object('must be an object'),
    limits: z.strictObject(runLimitsFields.shape, says('must be the resolved run limits')),
    format: z.nullable(z.enum(formatNames, says('must be null or a format name'))),
    formatFixed: z.optional(bool()),
    live: list(liveEntry),
    nextSeq: count(),
    version: count(),
    lastClientSeq: atLeast(-1, 'must be an integer from -1'),
    lastClientHash: z.optional(z.string(says('must be a string'))),
    writers: list(writer),
    recentIds: strings(),
    folds: list(
      z.looseObject(
        { number: atLeast(1, 'must be a positive integer'), ok: bool() },
        says('must be a fold record object')
      )
    ),
    foldCount: count(),
    backoff: z.nullable(object('must be null or an object')),
    calibration: z.nullable(object('must be null or an object')),
    fixedTokens: count(),
    toolTokens: z.optional(count()),
    lastError: z.nullable(
      z.looseObject(
        { at: z.number(says('must be a number')), message: z.string(says('must be a string')) },
        says('must be null or {at, message}')
      )
    ),
    closed: bool(),
    continuedAsNew: count(),
    sent: list(z.looseObject({ version: count(), counted: count() }, says('must be {version, counted}'))),
    hotPaths: z.looseObject(
      {
        scores: list(
          z.looseObject(
            { path: z.string(says('must be a string')), score: z.number(says('must be a finite number')) },
            says('must be {path, score}')
          )
        ),
      },
      says('must be an object')
    ),
    pendingFold: z.nullable(object('must be null or an object')),
    turnReads: strings(),
    ledger: z.optional(z.nullable(object('must be null or {summaryKey, ledger}'))),
  },
  says('must be the state a previous run handed over')
);

/** @returns what is wrong with the carried settings, limits and ledger, which the schema checks as objects only. */
function contentProblem(c: z.infer<typeof carriedSchema>): string | undefined {
  try {
    mergeSettings(defaultSettings, c.settings);
  } catch (err) {
    return `carried.settings: ${err instanceof Error ? err.message : String(err)}`;
  }
  // A client's empty mirror is the context at version 0: every change to the live context counts a version.
  if (c.version === 0 && c.live.length > 0)
    return 'carried.version must be at least 1 when carried.live holds messages';
  const limits = foldLimitsProblem(c.limits);
  if (limits) return `carried.${limits}`;
  return c.ledger ? carriedLedgerProblem(c.ledger, 'carried.ledger') : undefined;
}

/**
 * @returns the carried state, unchanged, when it is this conversation's and every field is well formed.
 * @throws Error naming the first field that is not.
 */
export function checkCarried(value: unknown, conversationId: string): CarriedState {
  const given = (value as { conversationId?: unknown } | null)?.conversationId;
  if (typeof value === 'object' && value !== null && given !== conversationId) {
    throw new Error(`carried.conversationId ${show(given)} is not this conversation ('${conversationId}')`);
  }
  const shape = problemOf(carriedSchema, value, '', 'carried');
  if (shape) throw new Error(shape);
  const problem = contentProblem(value as z.infer<typeof carriedSchema>);
  if (problem) throw new Error(problem);
  return value as CarriedState;
}

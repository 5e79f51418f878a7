/**
 * The synchronous update validators of the conversation: each refuses a caller's mistake before the update reaches
 * history, reading the state but changing nothing. `handle()` turns what they throw into a typed failure.
 */
import type { AppendInput, RewindInput } from '../../contract/definitions';
import { ConversationClosed } from '../../contract/closed';
import { mergeSettings, SettingsError, type SettingsPatch } from '../../contract/settings';
import { show } from '../../contract/show-value';
import { problemOf } from '../../contract/schemas/problem';
import { rewindArgument } from '../../contract/schemas/rewind';
import { waitForFoldArgument } from '../../contract/schemas/wait-for-fold';
import { AppendRejected, type ConversationState } from './conversation-state';
import { appendShapeProblem, checkAppendProtocol } from './validate-append';
import { foreignToChat, reportedAhead, reusedWithOtherContent, sharedSeqAhead } from './append-checks';
import { VersionMismatch } from './writers';

/**
 * The checks of an append against the conversation's state, as it arrives (the validator; the signal).
 * @returns the refusal (a future `reported.version`, a shared number skipping ahead, a number or id reused with
 *   other content, a Responses item in a chat conversation), or undefined.
 * @throws AppendRejected (or another refusal) when the append cannot be staged at all.
 */
export function appendStateProblem(state: ConversationState, input: AppendInput): Error | undefined {
  const s = state.carried;
  const ahead = reportedAhead(input, s.version) ?? sharedSeqAhead(input, s) ?? reusedWithOtherContent(input, s);
  if (ahead) return ahead;
  const staged = state.stage(input);
  const foreign = staged.format === 'chat' ? foreignToChat(staged) : undefined;
  return foreign ? new AppendRejected(foreign) : undefined;
}

/**
 * Validator of `append` and `prepare`: protocol, shape, then the state's checks.
 * @throws AppendRejected, or the state's refusal (see {@link appendStateProblem}).
 */
export function validateAppend(state: ConversationState, input: AppendInput): void {
  checkAppendProtocol(input);
  const problem = appendShapeProblem(input);
  if (problem) throw new AppendRejected(problem);
  const refusal = appendStateProblem(state, input);
  if (refusal) throw refusal;
}

/**
 * Validator of `rewind` (and its handler's first step).
 * @throws AppendRejected for a malformed input; VersionMismatch when `expectedVersion` is not the current version.
 */
export function validateRewind(state: ConversationState, input: RewindInput | undefined): void {
  const problem = problemOf(rewindArgument, input, 'rewind input');
  if (problem) throw new AppendRejected(problem);
  const expected = input?.expectedVersion;
  if (expected === undefined) return;
  if (expected !== state.carried.version) {
    throw new VersionMismatch(
      `rewind expected version ${expected}, but the context is at version ${state.carried.version}; nothing was removed`
    );
  }
}

/** Validator of `waitForFold`: bad input is the caller's mistake (InvalidAppend, as `rewind`'s is). @throws AppendRejected */
export function validateWaitForFold(input: unknown): void {
  const problem = problemOf(waitForFoldArgument, input, 'waitForFold input');
  if (problem) throw new AppendRejected(problem);
}

/**
 * Validator of `configure`: the patch must merge onto the current settings.
 * @throws ConversationClosed once closed; SettingsError for a missing or refused patch.
 */
export function validateConfigure(state: ConversationState, patch: SettingsPatch): void {
  if (state.carried.closed) throw new ConversationClosed();
  // mergeSettings reads a missing patch as "no change"; a caller sending none made a mistake.
  if (patch === null || patch === undefined) {
    throw new SettingsError(`configure needs a settings object, got ${show(patch)}`);
  }
  mergeSettings(state.carried.settings, patch);
}

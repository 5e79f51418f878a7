/**
 * `conversationWorkflow`: the durable owner of one conversation. Thin by design: it registers the handlers, waits,
 * and continues-as-new; the handlers live in `ConversationRunner` and the state in `ConversationState`.
 */
import { allHandlersFinished, ApplicationFailure, condition, continueAsNew, setHandler } from '@temporalio/workflow';
import { prepareForSend } from '../core/messages/send';
import { ConversationState } from './conversation-state';
import { ConversationRunner } from './conversation-runner';
import {
  appendSignal,
  appendUpdate,
  clearUpdate,
  closeUpdate,
  configureUpdate,
  contextQuery,
  foldsQuery,
  prepareUpdate,
  rewindUpdate,
  sendableQuery,
  stateQuery,
  waitForFoldUpdate,
  type ConversationInput,
  type ConversationStateView,
  type WaitForFoldInput,
} from './definitions';
import { defaultLimits, defaultSettings, mergeLimits, mergeSettings, type SettingsPatch } from './settings';

/**
 * Runs one conversation until `close`, continuing-as-new when Temporal suggests it, after a fold once history has
 * grown, and before the per-run update cap.
 * @returns the final state view when the conversation is closed.
 * @throws ApplicationFailure (non-retryable) when the start input's settings or limits are invalid.
 */
export async function conversationWorkflow(input: ConversationInput): Promise<ConversationStateView> {
  let state: ConversationState;
  let runner: ConversationRunner;
  let startError: string | undefined;
  try {
    const limits = mergeLimits(defaultLimits, input.limits);
    state = input.carried
      ? new ConversationState(input.carried)
      : ConversationState.create(input.conversationId, mergeSettings(defaultSettings, input.settings));
    runner = new ConversationRunner(state, limits);
  } catch (err) {
    // Handlers are still registered below, so an update that came with this start is rejected with this message
    // (instead of "no registered handler") before the workflow fails.
    startError = `invalid start input: ${(err as Error).message}`;
    state = ConversationState.create(input.conversationId, defaultSettings);
    runner = new ConversationRunner(state, defaultLimits);
  }
  const validateAppend = (i: Parameters<ConversationRunner['validateAppend']>[0]): void => {
    if (startError) throw new Error(startError);
    runner.validateAppend(i);
  };
  setHandler(prepareUpdate, (i) => runner.append(i, true), { validator: validateAppend });
  setHandler(appendUpdate, (i) => runner.append(i, false), { validator: validateAppend });
  setHandler(appendSignal, (i) => runner.appendSignal(i));
  setHandler(rewindUpdate, () => runner.rewind());
  setHandler(clearUpdate, () => runner.clear());
  setHandler(configureUpdate, (p) => runner.configure(p), {
    validator: (p: SettingsPatch) => {
      if (startError) throw new Error(startError);
      runner.validateConfigure(p);
    },
  });
  setHandler(closeUpdate, () => runner.close());
  setHandler(waitForFoldUpdate, (i?: WaitForFoldInput) => runner.waitForFold(i), {
    validator: (i?: WaitForFoldInput) => {
      if (startError) throw new Error(startError);
      runner.validateWaitForFold(i);
    },
  });
  setHandler(contextQuery, () => state.snapshot(runner.estimate()));
  setHandler(sendableQuery, () => {
    const snapshot = state.snapshot(runner.estimate());
    const messages = snapshot.format
      ? prepareForSend(snapshot.messages, { format: snapshot.format, unanswered: state.s.settings.unanswered })
      : [];
    return { ...snapshot, messages: [...messages] };
  });
  setHandler(stateQuery, () => runner.view());
  setHandler(foldsQuery, () => state.s.folds);

  if (startError) throw ApplicationFailure.create({ message: startError, type: 'InvalidStart', nonRetryable: true });

  await condition(() => state.s.closed || runner.shouldContinueAsNew());
  // Continuing-as-new with a handler still running would drop its result (temporalio/features#467).
  await condition(allHandlersFinished);
  if (state.s.closed) return runner.view();
  state.s.continuedAsNew++;
  return continueAsNew<typeof conversationWorkflow>({
    conversationId: state.s.conversationId,
    ...(input.limits ? { limits: input.limits } : {}),
    carried: state.s,
  });
}

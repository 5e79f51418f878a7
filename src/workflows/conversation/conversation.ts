/**
 * `conversationWorkflow`: the durable owner of one conversation. Thin by design: it registers the handlers, waits,
 * and continues-as-new; the handlers live in `ConversationHandlers` (each registered through `handle()`) and the state in `ConversationState`.
 */
import { allHandlersFinished, condition, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import { prepareForSend } from '../../core/messages/send';
import { currentFormatName } from '../../core/messages/format-name';
import { ConversationState } from './conversation-state';
import { startSettings } from './start-settings';
import { adoptConfiguredDefaults } from './configured-defaults';
import { ConversationHandlers } from './conversation-handlers';
import { ProfileCheck, profileOf } from './profile-check';
import {
  appendSignal,
  appendUpdate,
  clearUpdate,
  closeUpdate,
  configureUpdate,
  contextQuery,
  deleteUpdate,
  foldsQuery,
  prepareUpdate,
  rewindUpdate,
  sendableQuery,
  stateQuery,
  waitForFoldUpdate,
  writerSeqQuery,
  type AppendInput,
  type ConversationInput,
  type RewindInput,
  type ConversationStateView,
  type WaitForFoldInput,
} from '../../contract/definitions';
import { failure, FailureType, type FailureTypeName } from '../../contract/failures';
import { UnsupportedProtocol } from '../../contract/protocol-version';
import { handle } from './handle';
import { defaultLimits, defaultSettings, mergeLimits, type SettingsPatch } from '../../contract/settings';
import { conversationIdOf } from '../../contract/conversation-id';
import { checkedQuery } from './guard';
import { checkStartInput } from './validate-start';
import { upsertConversationAttributes } from './visibility';
import { AppendRejected } from './conversation-state';
import { argumentsProblem } from '../../contract/schemas/problem';
import { noArgument } from '../../contract/schemas/no-input';
import { queryArguments } from '../../contract/schemas/arguments';
import { compactNowUpdate, type CompactNowInput } from '../../contract/compact-now';
import { validateCompactNow } from './compact-now';
import { validateAppend, validateConfigure, validateRewind, validateWaitForFold } from './handler-validators';

/**
 * Runs one conversation until `close`, continuing-as-new when Temporal suggests it, after a fold once history has
 * grown, and before the per-run update cap.
 * @returns the final state view when the conversation is closed.
 * @throws ApplicationFailure (non-retryable) when the start input's settings or limits are invalid.
 */
export async function conversationWorkflow(input: ConversationInput): Promise<ConversationStateView> {
  let state: ConversationState;
  let handlers: ConversationHandlers;
  let startError: string | undefined;
  /** An unsupported `protocol` fails the start with its own type, every other problem with `InvalidStart`. */
  let startFailure: FailureTypeName = FailureType.invalidStart;
  /** Set for a new conversation (not a continued run): its own start settings. */
  let fresh: { settings: SettingsPatch | undefined } | undefined;
  const workflowId = workflowInfo().workflowId;
  // A profile named in the start settings is checked by the first call that uses them; `configure` checks its own.
  let startProfile = '';
  try {
    // `carried` is typed `object` in the public contract; it is this workflow's own CarriedState.
    const start = checkStartInput(input, workflowId);
    // A continued run keeps the limits its conversation resolved when it started: a changed default never reaches it.
    state = start.carried
      ? new ConversationState(start.carried)
      : ConversationState.create(
          start.conversationId,
          startSettings(start.settings),
          mergeLimits(defaultLimits, start.limits)
        );
    handlers = new ConversationHandlers(state, state.carried.limits);
    if (!start.carried && start.format) state.fixFormat(currentFormatName(start.format));
    if (!start.carried) startProfile = state.carried.settings.summarizer.profile;
    if (!start.carried) fresh = { settings: start.settings as SettingsPatch | undefined }; // checked just above
  } catch (err) {
    // Handlers are still registered below, so an update that came with this start is rejected with this message
    // (instead of "no registered handler") before the workflow fails.
    startError = `invalid start input: ${err instanceof Error ? err.message : String(err)}`;
    if (err instanceof UnsupportedProtocol) startFailure = FailureType.unsupportedProtocol;
    state = ConversationState.create(conversationIdOf(workflowId) ?? workflowId, defaultSettings);
    handlers = new ConversationHandlers(state, defaultLimits);
  }
  // A new conversation's defaults come from the worker's configuration. Started before the handlers are registered
  // (registering one runs the updates that came with the start), so they queue behind it on the mutex.
  const initialized = fresh && handlers.initialize(() => adoptConfiguredDefaults(state, fresh?.settings));
  const refuseAfterBadStart = (): void => {
    if (startError) throw failure(startFailure, startError);
  };
  /** `clear`, `close` and `delete` take no input: one sent anyway is a caller's mistake, refused before anything changes. */
  const refuseInput = (update: string, args: unknown[]): void => {
    refuseAfterBadStart();
    const problem = argumentsProblem(noArgument, args, update);
    if (problem) throw new AppendRejected(problem);
  };
  const profiles = new ProfileCheck();
  // Every handler ends by refreshing the UI's current details (no history event), whether it succeeded or not.
  const publish = (): void => handlers.publish();
  const { serialised, counted } = handlers;
  /** Appends wait for the start settings' profile, while those are still the conversation's. */
  const startProfileKnown = <R>(_args: unknown[], run: () => Promise<R>): Promise<R> =>
    profiles.whenKnown(state.carried.settings.summarizer.profile === startProfile ? startProfile : '', run);
  /** A validator refuses every call after a bad start (with the start's failure), then checks the input. */
  const checked =
    <A extends unknown[]>(check: (...args: A) => void) =>
    (...args: A): void => {
      refuseAfterBadStart();
      check(...args);
    };
  const appendValidator = checked((i: AppendInput) => validateAppend(state, i));
  setHandler(
    prepareUpdate,
    ...handle('prepare', (i: AppendInput) => handlers.prepare(i), {
      publish,
      validate: appendValidator,
      observed: true,
      gate: startProfileKnown,
      lock: serialised,
    })
  );
  setHandler(
    appendUpdate,
    ...handle('append', (i: AppendInput) => handlers.append(i), {
      publish,
      validate: appendValidator,
      gate: startProfileKnown,
      lock: serialised,
    })
  );
  setHandler(appendSignal, handle('append signal', (i: AppendInput) => handlers.appendSignal(i), { publish })[0]);
  setHandler(
    rewindUpdate,
    ...handle('rewind', (i?: RewindInput) => handlers.rewind(i), {
      publish,
      validate: checked((i?: RewindInput) => validateRewind(state, i)),
      lock: serialised,
    })
  );
  const noInput =
    (name: string) =>
    (...args: unknown[]) =>
      refuseInput(name, args);
  setHandler(
    clearUpdate,
    ...handle('clear', () => handlers.clear(), { publish, validate: noInput('clear'), lock: serialised })
  );
  setHandler(
    configureUpdate,
    ...handle('configure', (p: SettingsPatch) => handlers.configure(p), {
      publish,
      validate: checked((p: SettingsPatch) => validateConfigure(state, p)),
      gate: ([p], run) => profiles.whenKnown(profileOf(p), run),
      lock: serialised,
    })
  );
  setHandler(
    closeUpdate,
    ...handle('close', () => handlers.close(), { publish, validate: noInput('close'), lock: serialised })
  );
  setHandler(
    deleteUpdate,
    ...handle('delete', () => handlers.delete(), { publish, validate: noInput('delete'), lock: serialised })
  );
  setHandler(
    waitForFoldUpdate,
    ...handle('waitForFold', (i?: WaitForFoldInput) => handlers.waitForFold(i), {
      publish,
      validate: checked((i?: WaitForFoldInput) => validateWaitForFold(i)),
      lock: counted,
    })
  );
  setHandler(
    compactNowUpdate,
    ...handle('compactNow', (i?: CompactNowInput) => handlers.compactNow(i), {
      publish,
      validate: checked((i?: CompactNowInput) => validateCompactNow(state, i)),
      lock: serialised,
    })
  );
  setHandler(
    contextQuery,
    checkedQuery('context', queryArguments.context, () => state.snapshot(handlers.estimate()))
  );
  setHandler(
    sendableQuery,
    checkedQuery('sendable', queryArguments.sendable, () => {
      const snapshot = state.snapshot(handlers.estimate());
      const messages = snapshot.format
        ? prepareForSend(snapshot.messages, { format: snapshot.format, unanswered: state.carried.settings.unanswered })
        : [];
      return { ...snapshot, messages: [...messages] };
    })
  );
  setHandler(
    stateQuery,
    checkedQuery('state', queryArguments.state, () => handlers.view())
  );
  setHandler(
    foldsQuery,
    checkedQuery('folds', queryArguments.folds, () => [...state.carried.folds])
  );
  setHandler(
    writerSeqQuery,
    checkedQuery(
      'writerSeq',
      queryArguments.writerSeq,
      (writer: string) => state.carried.writers.find(([w]) => w === writer)?.[1] ?? -1
    )
  );

  if (startError) throw failure(startFailure, startError);
  await initialized;
  handlers.publish();

  // Start settings naming a profile the worker lacks are refused by the first append; the run then fails as a bad
  // start does (nothing was stored), so a correct start of the same id is not refused by this run's settings.
  const startRefusal = (): string | undefined =>
    startProfile !== '' && state.carried.settings.summarizer.profile === startProfile
      ? profiles.refusal(startProfile)
      : undefined;
  await condition(() => state.carried.closed || handlers.shouldContinueAsNew() || !!startRefusal());
  if (!state.carried.closed && !handlers.shouldContinueAsNew()) {
    await condition(allHandlersFinished);
    throw failure(FailureType.invalidStart, `invalid start input: ${startRefusal() ?? 'unknown summarizer profile'}`);
  }
  // Continuing-as-new with a handler still running would drop its result (temporalio/features#467).
  await condition(allHandlersFinished);
  // The next run (or the closed execution) is listed with the state it ends this one with.
  upsertConversationAttributes(handlers.view());
  if (state.carried.closed) return handlers.view();
  const carried = state.handOver();
  return continueAsNew<typeof conversationWorkflow>({ conversationId: carried.conversationId, carried });
}

/**
 * The client's side of the update size bound: a call whose input is over what one update may carry is refused
 * before it is sent (nothing stored, no workflow started), with the failure type the workflow uses for that input.
 */
import { ApplicationFailure } from '@temporalio/common';
import { utf8Length } from '../contract/bytes';
import { MAX_UPDATE_INPUT_BYTES } from '../contract/update-size';
import { ConversationUpdateError } from './errors';

/**
 * @param type the documented failure type for this update's input (`InvalidAppend`, `InvalidSettings`).
 * @throws ConversationUpdateError (`stored: false`) when the JSON of `input` is over {@link MAX_UPDATE_INPUT_BYTES}.
 */
export function refuseOversizedUpdate(update: string, input: unknown, type: string): void {
  const bytes = utf8Length(JSON.stringify(input) ?? '');
  if (bytes <= MAX_UPDATE_INPUT_BYTES) return;
  const message = `${update} input is ${bytes} bytes of JSON, over the ${MAX_UPDATE_INPUT_BYTES}-byte limit of one update; nothing was sent`;
  throw new ConversationUpdateError(type, false, ApplicationFailure.create({ type, message, nonRetryable: true }));
}

import type { MessageFormat, Transcript } from '../core/messages/types';
import { SummarizerConfigError } from './classify-error';

/**
 * The guard of the modes whose output exists in one wire format only (a provider's opaque compaction element).
 * @param need what the mode needs, e.g. "compact mode needs a Responses transcript"
 * @param output what it returns, e.g. "its compaction item"
 * @throws SummarizerConfigError (never retried) when `transcript` is in another format
 */
export function requireFormat(transcript: Transcript, format: MessageFormat, need: string, output: string): void {
  if (transcript.format !== format) {
    throw new SummarizerConfigError(`${need} (${output} has no ${transcript.format} form)`);
  }
}

/**
 * Sending a growing context without reading all of it each time. A client sends nearly the same context every step:
 * the previous one plus the new messages. When the previous context went out unchanged (every call answered, every
 * run of results in order) and did not end in a tool result, nothing new can change how it is sent: a new result
 * cannot answer one of its calls (each is answered already, and pairing takes only unanswered calls) and cannot join
 * one of its runs of results. Then only the new messages are read.
 */
import { adapterFor } from './adapter-for-format';
import { detectFormat } from './detect';
import { sent, type SendOptions } from './send';
import type { MessageFormat } from './types';
import { TranscriptValidationError } from './validate';

/** What the last send leaves for the next one. */
interface LastSend {
  messages: readonly unknown[];
  format: MessageFormat;
  unanswered: 'error' | 'synthesize';
  /** Whether the next send may read only what follows `messages` (see the module comment). */
  extendable: boolean;
}

/** `prepareForSend` for one caller's successive contexts; each call gives exactly what `prepareForSend` gives. */
export class SendCache {
  private last: LastSend | null = null;
  /** Where the last call began to read: 0 when it read the whole context (for tests and the benchmark). */
  readFrom = 0;

  /**
   * @returns the context to send (see `prepareForSend`).
   * @throws TranscriptValidationError as `prepareForSend` does, naming the element's index in `messages`.
   */
  prepare(messages: readonly unknown[], options: SendOptions = {}): unknown[] {
    const format = options.format ?? detectFormat(messages);
    const unanswered = options.unanswered ?? 'error';
    const adapter = adapterFor(format);
    const last = this.last;
    this.last = null;
    const from = last && this.extends(last, messages, format, unanswered) ? last.messages.length : 0;
    this.readFrom = from;
    const tail = from === 0 ? messages : messages.slice(from);
    let result: { out: unknown[]; unchanged: boolean };
    try {
      result = sent(tail, adapter, unanswered);
    } catch (err) {
      if (from > 0 && err instanceof TranscriptValidationError) {
        throw new TranscriptValidationError(err.index + from, err.problem, err.kind);
      }
      throw err;
    }
    const lastItem = messages.length > 0 ? adapter.toItem(messages[messages.length - 1], messages.length - 1) : null;
    this.last = {
      messages: [...messages],
      format,
      unanswered,
      extendable: result.unchanged && lastItem?.role !== 'tool',
    };
    return from === 0 ? result.out : [...messages.slice(0, from), ...result.out];
  }

  /** Whether `messages` begins with the last send's elements, themselves, and may be sent from there on. */
  private extends(last: LastSend, messages: readonly unknown[], format: MessageFormat, unanswered: string): boolean {
    if (!last.extendable || last.format !== format || last.unanswered !== unanswered) return false;
    if (messages.length < last.messages.length) return false;
    for (let i = 0; i < last.messages.length; i++) if (messages[i] !== last.messages[i]) return false;
    return true;
  }
}

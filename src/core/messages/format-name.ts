/**
 * The names a caller, a stored conversation or an in-flight activity may give a wire format. The typed-message format
 * was named `'s0'` (after the seed package it comes from) before it was named `'typed'`; the old name is still read
 * everywhere a format comes in, so conversations stored with it and callers that send it keep working.
 */
import type { MessageFormat } from './types';

/** The wire formats, by their current names. */
export const MESSAGE_FORMATS: readonly MessageFormat[] = [
  'chat',
  'responses',
  'typed',
  'anthropic',
  'gemini',
  'ai-sdk',
];

/** The typed-message format's former name: read as `'typed'`, never written. */
export const FORMER_TYPED_FORMAT_NAME = 's0';

/** A format as a caller may name it: its current name or, for the typed format, its former name. */
export type MessageFormatName = MessageFormat | typeof FORMER_TYPED_FORMAT_NAME;

/** @returns the format `name` means (`'s0'` means `'typed'`), or undefined when it names none. */
export function formatNamed(name: unknown): MessageFormat | undefined {
  if (name === FORMER_TYPED_FORMAT_NAME) return 'typed';
  return MESSAGE_FORMATS.includes(name as MessageFormat) ? (name as MessageFormat) : undefined;
}

/**
 * @returns the current name of a format given by any of its names (state and inputs written before the rename say
 * `'s0'`), or null for null.
 */
export function currentFormatName(format: MessageFormatName): MessageFormat;
export function currentFormatName(format: MessageFormatName | null): MessageFormat | null;
export function currentFormatName(format: MessageFormatName | null): MessageFormat | null {
  return format === FORMER_TYPED_FORMAT_NAME ? 'typed' : format;
}

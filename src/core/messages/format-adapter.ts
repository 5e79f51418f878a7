import type { Item, MessageFormat, ToolCall } from './types';

/** What a summary element records about the items it replaced. */
export interface SummaryMeta {
  /** How many caller elements the summary stands in for. */
  droppedCount: number;
  /** Their ids, in order, where the format gives them one. */
  summarizedIds: string[];
}

/**
 * Reads and writes one wire format. Writers return copies and never mutate their input; fields they do not touch are
 * preserved as they are.
 */
export interface FormatAdapter<Raw = unknown> {
  format: MessageFormat;
  /**
   * Reads one element into an Item (without `answers`; pairing is done by `normalize`).
   * @throws TranscriptValidationError on a malformed element.
   */
  toItem(raw: unknown, index: number): Item<Raw>;
  /** A copy of a tool-result element with its output replaced by `text` (eviction, clipping). */
  withToolOutput(raw: Raw, text: string): Raw;
  /** A copy of any text-bearing element with its main text replaced (clipping an oversized message). */
  withText(raw: Raw, text: string): Raw;
  /** The summary element in this format (chat/responses: a user message starting with SUMMARY_MARKER; typed: context + meta). */
  summaryItem(text: string, meta: SummaryMeta): Raw;
  /** A synthetic tool result saying the call was not run (send-time policy `synthesize`); deterministic text. */
  notRunResult(call: ToolCall): Raw;
}

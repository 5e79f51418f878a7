/**
 * The check of a fold summary before it is stored (`ConversationArchive.recordSummary`): driver-independent, so both
 * drivers refuse the same input with the same message.
 */
import { ArchiveInputError, type FoldSummaryText } from './archive';
import { MAX_ENTRY_BYTES } from './entries';

/**
 * @returns the summary, checked.
 * @throws ArchiveInputError naming the bad field: a digest that is not 64 hex characters, an unknown kind, a text
 *   that is not a string or is over {@link MAX_ENTRY_BYTES}.
 */
export function checkSummary(value: unknown): FoldSummaryText {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ArchiveInputError('fold summary must be an object {digest, kind, text}');
  const v = value as Record<string, unknown>;
  const extra = Object.keys(v).find((k) => k !== 'digest' && k !== 'kind' && k !== 'text');
  if (extra !== undefined) throw new ArchiveInputError(`fold summary: unknown key '${extra.slice(0, 40)}'`);
  if (typeof v.digest !== 'string' || !/^[0-9a-f]{64}$/.test(v.digest))
    throw new ArchiveInputError("fold summary: 'digest' must be 64 lowercase hex characters (a SHA-256)");
  if (v.kind !== 'text' && v.kind !== 'items')
    throw new ArchiveInputError("fold summary: 'kind' must be 'text' or 'items'");
  if (typeof v.text !== 'string') throw new ArchiveInputError("fold summary: 'text' must be a string");
  const bytes = Buffer.byteLength(v.text, 'utf8');
  if (bytes > MAX_ENTRY_BYTES)
    throw new ArchiveInputError(`fold summary is ${bytes} bytes; at most ${MAX_ENTRY_BYTES} are stored`);
  return { digest: v.digest, kind: v.kind, text: v.text };
}

/** A message, tool schema or option that cannot be priced; the message names the offending field. */
export class TokenInputError extends Error {
  override readonly name = 'TokenInputError';
}

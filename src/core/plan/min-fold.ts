/**
 * Min-fold: a folded part too small to pay for its summary is not folded.
 * @returns undefined when the part is large enough, otherwise the reason.
 */
export function minFoldDecline(foldedTokens: number, minFoldTokens: number): string | undefined {
  if (foldedTokens >= minFoldTokens) return undefined;
  return `the folded part is ${foldedTokens} tokens, under the minimum fold of ${minFoldTokens}`;
}

/**
 * The per-conversation settings of background folds: whether a fold is summarized in the background or waited for,
 * the soft threshold where a background fold starts, and how long a `prepare` at the hard limit waits for it.
 */

/** Settings of background folds (part of `ConversationSettings`). */
export interface FoldSettings {
  /**
   * `background`: a fold starts at `prefoldRatio` of the budget and is summarized while the agent keeps working; its
   * summary is applied at the next `prepare` after it is ready. `blocking`: a `prepare` that reaches the trigger waits
   * for the summarizer (the behaviour before background folds, kept for comparison). With the offline `extractive`
   * summarizer folds are always made in line: it answers in milliseconds. @default 'background'
   */
  foldMode: 'background' | 'blocking';
  /** Start a background fold once the context reaches this share of the budget (below `triggerRatio`). @default 0.7 */
  prefoldRatio: number;
  /**
   * At the hard limit (`triggerRatio`), wait at most this long for the fold in flight, then apply the offline
   * fallback fold over the same prefix (the model summary replaces it later). 0 = do not wait. @default 10000
   */
  maxFoldWaitMs: number;
}

export const defaultFoldSettings: FoldSettings = { foldMode: 'background', prefoldRatio: 0.7, maxFoldWaitMs: 10_000 };

/** @returns the fold settings of settings, defaults filled in for those a partial patch leaves out. */
export function foldSettingsOf(settings: Partial<FoldSettings>): FoldSettings {
  return {
    foldMode: settings.foldMode ?? defaultFoldSettings.foldMode,
    prefoldRatio: settings.prefoldRatio ?? defaultFoldSettings.prefoldRatio,
    maxFoldWaitMs: settings.maxFoldWaitMs ?? defaultFoldSettings.maxFoldWaitMs,
  };
}

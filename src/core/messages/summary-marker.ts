/**
 * The first words of every summary item this engine writes in the OpenAI formats (where a summary is a plain user
 * message). Normalisation recognises a leading item that starts with it as role `summary`, so a later fold folds the
 * previous summary into the new one instead of stacking summaries.
 */
export const SUMMARY_MARKER = '[Summary of the earlier conversation';

/** A message as shown to people and written to logs: role and text only (a dry run's preview, a run log's final prompt). */
export interface PromptMessage {
  role: 'system' | 'human';
  content: string;
}

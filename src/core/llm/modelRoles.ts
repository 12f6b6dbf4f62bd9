/**
 * The two models a configuration names. The main model writes final answers and runs the agent; the tool model
 * (usually smaller and cheaper) runs LLM-as-a-tool steps and plans for the agent's fallback. An action prompt or an
 * llm_tools entry may name another model for a role (see ModelProvider).
 */
export type ModelRole = 'main' | 'tool';

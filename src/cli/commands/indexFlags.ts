import { INDEX_TOOL_NAMES } from '../../core/codebaseIndex/tools/indexTools';
import { DEFAULT_TOOL_TOGGLES, type ToolToggles } from '../../core/tools/toolToggles';

/** `--no-index`: the index's tools are switched off too, so the agent works as it did before the index. */
export function withoutIndexTools(toggles: ToolToggles | undefined, noIndex: boolean): ToolToggles | undefined {
  if (!noIndex) return toggles;
  const base = toggles ?? DEFAULT_TOOL_TOGGLES;
  return { ...base, perTool: { ...base.perTool, ...Object.fromEntries(INDEX_TOOL_NAMES.map((name) => [name, false])) } };
}

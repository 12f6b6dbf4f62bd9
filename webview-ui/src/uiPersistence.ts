import type { HostApi } from './hostApi';
import type { AppState, FormValue, Panel } from './state';

/** What survives the view being hidden or reloaded: UI state only, never conversations (those belong to the host). */
interface PersistedUi {
  version: 1;
  draft: string;
  panel: Panel;
  pickerQuery: string;
  historyQuery: string;
  form?: { promptId: string; values: Record<string, FormValue> };
  /** The inputs each prompt last ran with (AppState.lastInputs), so a reloaded view still prefills its forms. */
  lastInputs?: Record<string, Record<string, FormValue>>;
}

const PANELS: readonly Panel[] = ['chat', 'history', 'picker', 'form', 'tools'];

export function restoreUi(host: HostApi): Partial<AppState> {
  const saved = host.getState() as Partial<PersistedUi> | undefined;
  if (!saved || saved.version !== 1) return {};
  const panel = PANELS.includes(saved.panel as Panel) ? (saved.panel as Panel) : 'chat';
  const form =
    saved.form && typeof saved.form.promptId === 'string' ? { promptId: saved.form.promptId, values: { ...saved.form.values }, errors: {} } : undefined;
  return {
    draft: typeof saved.draft === 'string' ? saved.draft : '',
    panel: panel === 'form' && !form ? 'chat' : panel,
    pickerQuery: typeof saved.pickerQuery === 'string' ? saved.pickerQuery : '',
    history: { query: typeof saved.historyQuery === 'string' ? saved.historyQuery : '', items: [], loaded: false },
    form,
    lastInputs: saved.lastInputs && typeof saved.lastInputs === 'object' ? { ...saved.lastInputs } : {},
  };
}

/** Writes the UI state whenever one of its parts changes (by identity, so streaming never triggers a write). */
export function persistUi(host: HostApi, subscribe: (listener: (state: AppState) => void) => () => void): () => void {
  let last: unknown[] = [];
  return subscribe((state) => {
    const parts = [state.draft, state.panel, state.pickerQuery, state.history.query, state.form?.promptId, state.form?.values, state.lastInputs];
    if (parts.every((part, i) => part === last[i])) return;
    last = parts;
    const saved: PersistedUi = {
      version: 1,
      draft: state.draft,
      panel: state.panel,
      pickerQuery: state.pickerQuery,
      historyQuery: state.history.query,
      form: state.form ? { promptId: state.form.promptId, values: state.form.values } : undefined,
      lastInputs: state.lastInputs,
    };
    host.setState(saved);
  });
}

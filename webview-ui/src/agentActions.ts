import type { HostToWebview, PromptRunMessage, PromptSummary } from '../../src/shared/protocol';
import type { ChatRequests, Notify } from './actions';
import { parseAgentCommand } from './agentCommand';
import { checkForm, formValues, initialValues, type InputValue, lastFormValues, valuesFromCommand } from './formModel';
import type { HostApi } from './hostApi';
import type { FormState, FormValue, Store } from './state';

type PathSuggestions = Extract<HostToWebview, { type: 'path/suggestions' }>;
type PathPicked = Extract<HostToWebview, { type: 'path/picked' }>;
/** One suggestion list is awaited at a time: a newer prefix supersedes an older one. */
const SUGGEST_CHANNEL = 'form-suggest';

/** Typing in a path field asks the host for completions after this pause, not on every key. */
export const SUGGEST_DELAY_MS = 120;

/** The `/agent` side: the prompt picker, its form, path completion and running a prompt. */
export class AgentActions {
  private suggestTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: HostApi,
    private readonly store: Store,
    private readonly notify: Notify,
    private readonly requests: ChatRequests,
  ) {}

  openPicker(query = ''): void {
    this.store.update({ panel: 'picker', pickerQuery: query });
  }

  setPickerQuery(pickerQuery: string): void {
    this.store.update({ pickerQuery });
  }

  /**
   * Opens the form of a valid prompt, filled with `values`, else the inputs it last ran with (from
   * this view, or the conversation's last run of it), else its defaults. It opens without errors:
   * fields are checked on Run and when the user leaves a field they changed. An invalid prompt
   * stays in the picker with its error.
   */
  pick(promptId: string, values?: Record<string, FormValue>): void {
    const prompt = this.prompt(promptId);
    if (!prompt || prompt.error) return;
    const filled = values ?? { ...initialValues(prompt), ...lastFormValues(this.store.current, prompt) };
    this.store.update({ panel: 'form', form: { promptId: prompt.id, values: filled, errors: {} } });
  }

  /** A finished run's "Edit inputs…": its form, filled with that run's inputs. */
  editRun(run: PromptRunMessage): void {
    const prompt = this.prompt(run.promptId);
    if (!prompt) return this.notify('error', `The prompt \`${run.promptId}\` is no longer available.`);
    if (prompt.error) return this.notify('error', `**${prompt.title}** cannot run: ${prompt.error}`);
    this.pick(prompt.id, { ...initialValues(prompt), ...formValues(prompt, run.inputs) });
  }

  setValue(field: string, value: FormValue): void {
    this.updateForm((form) => ({ values: { ...form.values, [field]: value }, errors: without(form.errors, field), touched: withItem(form.touched, field) }));
  }

  /** Leaving a field the user changed checks that field alone; untouched fields wait for Run. */
  leaveField(field: string): void {
    const form = this.store.current.form;
    const prompt = form && this.prompt(form.promptId);
    if (!form || !prompt || !form.touched?.includes(field)) return;
    const check = checkForm(prompt, form.values);
    const error = check.ok ? undefined : check.errors[field];
    if (error && form.errors[field] !== error) this.updateForm(() => ({ errors: { ...form.errors, [field]: error } }));
  }

  suggestPath(field: string, prefix: string, delayMs = SUGGEST_DELAY_MS): void {
    clearTimeout(this.suggestTimer);
    this.suggestTimer = setTimeout(async () => {
      const promptId = this.store.current.form?.promptId;
      const reply = await this.requests.request<PathSuggestions>({ type: 'path/suggest', prefix }, { channel: SUGGEST_CHANNEL });
      if (reply && this.store.current.form?.promptId === promptId) this.updateForm(() => ({ suggestions: { field, items: reply.items } }));
    }, delayMs);
  }

  /** Picking a folder asks for its children at once, so the user can walk down the tree. */
  chooseSuggestion(field: string, path: string): void {
    this.setValue(field, path);
    this.closeSuggestions();
    if (path.endsWith('/')) this.suggestPath(field, path, 0);
  }

  closeSuggestions(): void {
    clearTimeout(this.suggestTimer);
    this.requests.cancel(SUGGEST_CHANNEL);
    this.updateForm(() => ({ suggestions: undefined }));
  }

  async browse(field: string): Promise<void> {
    const promptId = this.store.current.form?.promptId;
    const reply = await this.requests.request<PathPicked>({ type: 'path/browse', kind: 'any' }, { channel: 'form-browse' });
    const form = this.store.current.form;
    if (!reply || !form || form.promptId !== promptId) return;
    if (reply.path === undefined) return this.updateForm(() => ({ suggestions: undefined }));
    const { [field]: _cleared, ...errors } = form.errors;
    this.updateForm(() => ({ values: { ...form.values, [field]: reply.path! }, errors, suggestions: undefined }));
  }

  /** Validates first: a form with errors shows them per field and posts nothing. */
  run(): void {
    const form = this.store.current.form;
    const prompt = form && this.prompt(form.promptId);
    if (!form || !prompt) return;
    const check = checkForm(prompt, form.values);
    if (!check.ok) return this.updateForm(() => ({ errors: check.errors }));
    if (this.start(prompt.id, check.inputs)) this.cancel();
  }

  cancel(): void {
    clearTimeout(this.suggestTimer);
    this.store.update({ panel: 'chat', form: undefined });
  }

  /** `/agent <id> name=value …`: runs at once when the inputs are complete, otherwise opens the form filled in. */
  runCommand(args: string): void {
    const command = parseAgentCommand(args);
    const prompt = command.promptId ? this.prompt(command.promptId) : undefined;
    if (!prompt) return this.openPicker(command.promptId ?? '');
    if (prompt.error) return this.notify('error', `**${prompt.title}** cannot run: ${prompt.error}`);
    const { values, unknown } = valuesFromCommand(prompt, command.named, command.positional);
    const check = checkForm(prompt, values);
    if (unknown.length === 0 && check.ok) {
      this.start(prompt.id, check.inputs);
      return;
    }
    if (unknown.length > 0) this.notify('info', `**${prompt.title}** has no input for: ${unknown.map((u) => `\`${u}\``).join(', ')}.`);
    this.pick(prompt.id, values);
  }

  /** Runs a finished run's prompt again with the same inputs. */
  rerun(run: PromptRunMessage): void {
    const inputs: Record<string, InputValue> = {};
    for (const [name, value] of Object.entries(run.inputs)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') inputs[name] = value;
    }
    this.start(run.promptId, inputs);
  }

  private start(promptId: string, inputs: Record<string, InputValue>): boolean {
    if (this.store.current.activeId) {
      this.notify('info', 'An answer is still streaming: press **Stop** or wait for it to finish.');
      return false;
    }
    this.host.postMessage({ type: 'promptRun/start', promptId, inputs });
    const prompt = this.prompt(promptId);
    if (prompt) this.store.update({ lastInputs: { ...this.store.current.lastInputs, [prompt.id]: formValues(prompt, inputs) } });
    return true;
  }

  private prompt(id: string): PromptSummary | undefined {
    const prompts = this.store.current.prompts;
    return prompts.find((p) => p.id === id) ?? prompts.find((p) => p.id.toLowerCase() === id.toLowerCase());
  }

  private updateForm(change: (form: FormState) => Partial<FormState>): void {
    const form = this.store.current.form;
    if (form) this.store.update({ form: { ...form, ...change(form) } });
  }
}

function withItem(list: string[] | undefined, item: string): string[] {
  return list?.includes(item) ? list : [...(list ?? []), item];
}

function without(record: Record<string, string>, key: string): Record<string, string> {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}

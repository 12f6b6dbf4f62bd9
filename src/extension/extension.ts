import { join } from 'node:path';
import * as vscode from 'vscode';
import { ToolProtocolMemory } from '../core/agent/textProtocol/toolProtocolMemory';
import { StateManager } from '../core/history';
import type { ModelProvider } from '../core/llm/modelProvider';
import { OpenAiModelProvider } from '../core/llm/openAiModelProvider';
import { ConversationSession } from '../core/session/conversationSession';
import { promptSummaries } from '../core/session/promptSummaries';
import type { HostStatus } from '../shared/protocol';
import { addSelectionToChat, postAgentModeState } from './agentModeMessages';
import { ApiKeyStore } from './apiKeyStore';
import { CodeWikiViewProvider } from './codewikiViewProvider';
import { registerAuthoring } from './authoring/registerAuthoring';
import { registerCommands } from './commands';
import { AGENT_MODE_SECTIONS, isConfigured, mainModelSettings, modelLabel, readAgentSettings, readSettings } from './extensionSettings';
import { HostMessageRouter } from './hostMessageRouter';
import { ProposedChanges } from './proposedChanges';
import { WorkspaceEngine } from './workspaceEngine';
import { UNCONFIGURED_MODELS } from './unconfiguredModels';
import { setUpVscodeModels, watchLanguageModels } from './vscodeModels/vscodeModelSetup';
import { ToolTesterService } from '../core/toolTester/toolTesterService';
import { modalApprovalGate } from './toolTester/modalApprovalGate';
import { ToolTesterPanel } from './toolTester/toolTesterPanel';
import { IndexStatusBar } from './codeIndex/indexStatusBar';
import { registerIndexCommands } from './codeIndex/indexCommands';
import { WorkspaceIndex } from './codeIndex/workspaceIndex';
import { PromptCacheWarmer } from './promptCacheWarmer';
import { ExtensionLocalModel } from './localModel/extensionLocalModel';
import { registerLocalModelCommands } from './localModel/registerLocalModelCommands';
import { watchProjectInstructions } from './instructionsWatcher';
import { registerWiki } from './wiki/registerWiki';

/**
 * Activation only wires things together; the history store and the engine are opened on first
 * use (the view resolving, or a command), so activation stays cheap.
 */
export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('CodeWiki');
  const apiKeys = new ApiKeyStore(context.secrets);
  let models: ModelProvider = UNCONFIGURED_MODELS;
  let status: HostStatus = { configured: false, baseUrl: '', hasApiKey: false, trusted: vscode.workspace.isTrusted };

  const localModel = new ExtensionLocalModel(join(context.extensionPath, 'scripts', 'local-model', 'serve.sh'), output);
  const refreshModels = async () => {
    const settings = localModel.follow(readSettings());
    const key = await apiKeys.get();
    if (settings.provider === 'vscode') {
      const setup = await setUpVscodeModels(settings);
      models = setup.models;
      status = { ...setup.status, hasApiKey: Boolean(key), trusted: vscode.workspace.isTrusted };
      output.appendLine(setup.summary);
      return;
    }
    models = isConfigured(settings)
      ? new OpenAiModelProvider(mainModelSettings(settings, key), { model: settings.toolModel || undefined })
      : UNCONFIGURED_MODELS;
    status = {
      configured: isConfigured(settings),
      baseUrl: settings.baseUrl,
      model: settings.model || undefined,
      modelLabel: modelLabel(settings),
      toolModel: settings.toolModel || undefined,
      hasApiKey: Boolean(key),
      trusted: vscode.workspace.isTrusted,
      ...localModel.status(settings),
    };
    output.appendLine(
      status.configured
        ? `Model: ${settings.model} at ${settings.baseUrl}${settings.toolModel ? `, tool model ${settings.toolModel}` : ''}${key ? ', with an API key' : ''}`
        : 'No endpoint or model configured (codewiki.baseUrl, codewiki.model).',
    );
  };
  const modelsReady = refreshModels();
  // Re-read when the settings change, so the session keeps one agent per settings (see SessionDeps.agentSettings).
  let agentSettings = readAgentSettings();
  const proposedChanges = new ProposedChanges();

  const storageDir = context.globalStorageUri.fsPath;
  // The code index starts with the extension: by the first question it has usually finished (in a worker thread).
  const codeIndex = new WorkspaceIndex({
    storageDir,
    allowSecretFiles: () => readSettings().allowSecretFiles,
    enabled: () => readSettings().indexEnabled,
    log: (line) => output.appendLine(line),
  });
  const indexStatusBar = new IndexStatusBar();
  const engine = new WorkspaceEngine(join(context.extensionPath, 'action-prompts'), readSettings, () => models, codeIndex);
  let historyOpen: Promise<{ history: StateManager; session: ConversationSession; router: HostMessageRouter; sendInitialState(): Promise<void> }> | undefined;
  const view: CodeWikiViewProvider = new CodeWikiViewProvider(context.extensionUri, (message) => void services().then((s) => s.router.handle(message)));

  const toolTester = new ToolTesterPanel(
    context.extensionUri,
    new ToolTesterService({
      engine: () => engine.get(),
      settings: () => agentSettings,
      probeTarget: async () => {
        const settings = localModel.follow(readSettings());
        if (settings.provider === 'vscode')
          return {
            unavailable: "The probe tests an OpenAI-compatible endpoint. With codewiki.provider set to vscode, VS Code's own models take tools natively.",
          };
        if (!isConfigured(settings)) return { unavailable: 'Set codewiki.baseUrl and codewiki.model first (CodeWiki: Set API Key if the server needs one).' };
        return mainModelSettings(settings, await apiKeys.get());
      },
      gate: modalApprovalGate,
    }),
    (line) => output.appendLine(line),
  );

  const sendPrompts = async () => {
    const { engine: ready } = await engine.get();
    view.post({ type: 'prompts/list', prompts: ready ? promptSummaries(ready.catalog.entries(), ready.workspace) : [] });
  };
  // Agent mode's fixed prompt goes into a local llama-server's cache before the first question (prefixWarmup.ts).
  const warmer = new PromptCacheWarmer(
    async (signal) => (historyOpen ? (await services()).session.warmPromptCache(signal) : undefined),
    (line) => output.appendLine(line),
  );
  const services = () =>
    (historyOpen ??= (async () => {
      await modelsReady;
      const { manager: history, problems } = await StateManager.open(storageDir);
      problems.forEach((p) => output.appendLine(p));
      const session = new ConversationSession({
        history,
        models: () => models,
        engine: () => engine.get(),
        runLogDir: join(storageDir, 'runs'),
        post: (m) => view.post(m),
        agentSettings: () => agentSettings,
        toolProtocolMemory: new ToolProtocolMemory(join(storageDir, 'tool-protocols.json')),
      });
      const sendInitialState = async () => {
        // The mode before the engine, which may take a while to build: the composer shows the right one meanwhile.
        view.post({ type: 'chat/mode', mode: agentSettings.mode });
        const { engine: ready } = await engine.get();
        view.post({
          type: 'state/init',
          status,
          prompts: ready ? promptSummaries(ready.catalog.entries(), ready.workspace) : [],
          conversation: session.current(),
        });
        await postAgentModeState({ session, agentSettings: () => agentSettings, post: (m) => view.post(m) }, true);
      };
      const router = new HostMessageRouter({
        session,
        history,
        engine,
        proposedChanges,
        agentSettings: () => agentSettings,
        post: (m) => view.post(m),
        log: (line) => output.appendLine(line),
        sendInitialState,
      });
      flushHistory = () => history.dispose();
      return { history, session, router, sendInitialState };
    })().then((opened) => {
      warmer.trigger();
      return opened;
    }));

  const refreshStatus = async () => {
    await refreshModels();
    view.post({ type: 'status/update', status });
  };
  // New settings or a new key mean new models, so the engine is rebuilt; trust is handled by WorkspaceEngine itself.
  const onSettingsOrKey = async () => {
    await refreshStatus();
    engine.invalidate();
    void toolTester.refresh();
  };
  // Mode, tools and approvals need no new engine or models: the next agent turn reads them.
  const onAgentModeSettings = async () => {
    agentSettings = readAgentSettings();
    void toolTester.refresh();
    warmer.trigger();
    if (!historyOpen) return;
    const { session } = await services();
    await postAgentModeState({ session, agentSettings: () => agentSettings, post: (m) => view.post(m) }, false);
  };
  context.subscriptions.push(
    output,
    localModel,
    localModel.onDidChange(() => void onSettingsOrKey()),
    ...registerLocalModelCommands(localModel),
    codeIndex,
    indexStatusBar,
    codeIndex.onDidChangeStatus((status) => indexStatusBar.show(status)),
    ...registerIndexCommands(codeIndex),
    engine,
    view,
    proposedChanges,
    vscode.window.registerWebviewViewProvider(CodeWikiViewProvider.viewId, view),
    toolTester,
    warmer,
    watchProjectInstructions(() => warmer.trigger()),
    engine.onDidChange(() => {
      warmer.trigger();
      void sendPrompts();
      void toolTester.refresh();
      if (historyOpen) void services().then(async ({ session }) => view.post({ type: 'tools/list', ...(await session.toolsState()) }));
    }),
    apiKeys.onDidChange(() => void onSettingsOrKey()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('codewiki')) return;
      // The index follows the secret policy and its switch; the engine is rebuilt below to take the new index.
      if (e.affectsConfiguration('codewiki.allowSecretFiles') || e.affectsConfiguration('codewiki.index.enabled')) codeIndex.restart();
      const agentMode = AGENT_MODE_SECTIONS.some((section) => e.affectsConfiguration(section));
      if (agentMode) void onAgentModeSettings();
      if (!agentMode || affectsOtherSettings(e, context.extension.packageJSON)) void onSettingsOrKey();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void refreshStatus()),
    // Models come and go with the extensions that provide them (Copilot signing in, a provider activating late).
    watchLanguageModels(() => {
      if (readSettings().provider === 'vscode') void onSettingsOrKey();
    }),
    ...registerAuthoring({ engine, view, maxInputTokens: () => readSettings().maxInputTokens }),
    ...registerWiki({
      extensionUri: context.extensionUri,
      engine,
      models: async () => {
        await modelsReady;
        return { configured: status.configured, problem: status.problem, localModel: status.localModel };
      },
      log: (line) => output.appendLine(line),
    }),
    ...registerCommands({
      view,
      engine,
      apiKeys,
      addSelectionToChat: () =>
        addSelectionToChat(
          () => view.reveal(),
          (m) => view.post(m),
        ),
      openToolTester: () => toolTester.show(),
      newConversation: async () => {
        const { session, sendInitialState } = await services();
        await session.newConversation();
        await sendInitialState();
      },
    }),
  );
}

let flushHistory: (() => Promise<void>) | undefined;

/** Whether a change touches settings besides agent mode's (endpoint, models, prompt folders…). */
function affectsOtherSettings(
  e: vscode.ConfigurationChangeEvent,
  packageJson: { contributes?: { configuration?: { properties?: Record<string, unknown> } } },
): boolean {
  const properties = packageJson.contributes?.configuration?.properties ?? {};
  const others = Object.keys(properties).filter((key) => !AGENT_MODE_SECTIONS.some((section) => key.startsWith(`${section}.`)));
  return others.length === 0 || others.some((key) => e.affectsConfiguration(key));
}

/** VS Code waits for this promise, so pending history writes reach the disk before exit. */
export function deactivate(): Promise<void> | undefined {
  return flushHistory?.();
}

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));

/** The promises package.json makes to VS Code (security.md #1, #2) and to users (issue 3 §1). */
describe('extension manifest', () => {
  it('#2: endpoint, model and request settings can only be set in user settings', () => {
    const properties = manifest.contributes.configuration.properties;
    for (const key of ['baseUrl', 'model', 'toolModel', 'temperature', 'maxInputTokens', 'requestTimeoutSeconds']) {
      assert.equal(properties[`codewiki.${key}`].scope, 'application', key);
    }
  });

  it('#8: agent-mode settings (mode, tools, approvals, iterations, adapters) can only be set in user settings', () => {
    const properties = manifest.contributes.configuration.properties;
    const agentKeys = [
      'chat.mode',
      'agent.autoApprove',
      'agent.commandAllowList',
      'agent.maxIterations',
      'agent.modelAdapters',
      'tools.enabled',
      'tools.toggles',
      'tools.enableNewTools',
    ];
    for (const key of agentKeys) assert.equal(properties[`codewiki.${key}`]?.scope, 'application', key);
    assert.equal(properties['codewiki.chat.mode'].default, 'agent');
    assert.equal(properties['codewiki.agent.maxIterations'].default, 12);
    assert.equal(properties['codewiki.tools.enableNewTools'].default, true);
  });

  it('Add Selection to Chat is in the editor context menu and on Ctrl/Cmd+L in the editor', () => {
    assert.deepEqual(manifest.contributes.keybindings, [{ command: 'codewiki.addSelectionToChat', key: 'ctrl+l', mac: 'cmd+l', when: 'editorTextFocus' }]);
    assert.equal(manifest.contributes.menus['editor/context'][0].command, 'codewiki.addSelectionToChat');
  });

  it('#1: supports untrusted workspaces in a limited way', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['codewiki.promptFolders', 'codewiki.wiki.folder']);
  });

  it('contributes the sidebar, the commands in the CodeWiki category, and editor validation; no needless activation events', () => {
    // onLanguage:yaml is the one explicit event: completion, hover and the CodeLens for prompt files must be registered
    // when the user opens a prompt before ever opening the sidebar. Everything else is implied by the contributions.
    assert.deepEqual(manifest.activationEvents, ['onLanguage:yaml']);
    assert.equal(manifest.contributes.viewsContainers.activitybar[0].title, 'CodeWiki');
    assert.deepEqual(
      manifest.contributes.views.codewiki.map((v: { id: string; name: string; type: string }) => [v.id, v.name, v.type]),
      [['codewiki.chat', 'Chat', 'webview']],
    );
    assert.deepEqual(
      manifest.contributes.commands.map((c: { title: string; category: string }) => `${c.category}: ${c.title}`),
      [
        'CodeWiki: New Chat',
        'CodeWiki: Show History',
        'CodeWiki: Run Action Prompt…',
        'CodeWiki: New Action Prompt',
        'CodeWiki: Set API Key',
        'CodeWiki: Clear API Key',
        'CodeWiki: Add Selection to Chat',
        'CodeWiki: Tool Tester',
        'CodeWiki: Start Local Model',
        'CodeWiki: Rebuild Index',
        'CodeWiki: Stop Indexing',
        'CodeWiki: Generate Wiki',
        'CodeWiki: Open Wiki',
        'CodeWiki: Run This Action Prompt',
        'CodeWiki: Dry Run This Action Prompt',
        'CodeWiki: Validate This File',
      ],
    );
    assert.deepEqual(manifest.contributes.yamlValidation[0].fileMatch, ['.codewiki/prompts/**/*.yaml', '.codewiki/prompts/**/*.yml']);
    assert.equal(manifest.contributes.yamlValidation[0].url, './schemas/action-prompt.schema.json');
  });
});

import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';

/**
 * Runs inside the real extension host of code-server, against the workspace that
 * extensionAuthoring.test.ts made: in `.codewiki/prompts/`, one copy of the same valid prompt per
 * test (complete, problems, navigate, lens: input `topic`, a step calling `outline`), so that no
 * test sees another's edits, and `outline.yaml`, the nested prompt.
 */
const root = () => vscode.workspace.workspaceFolders![0].uri;
const promptUri = (name: string) => vscode.Uri.joinPath(root(), '.codewiki', 'prompts', name);

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function open(name: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(promptUri(name));
  return vscode.window.showTextDocument(document);
}

function positionOf(document: vscode.TextDocument, needle: string, delta = needle.length): vscode.Position {
  const offset = document.getText().indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" is in the document`);
  return document.positionAt(offset + delta);
}

async function completionLabels(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, position);
  return list.items;
}

/**
 * The quick fix VS Code offers for a range under a title, waited for: getDiagnostics answers from the extension
 * host at once while the workbench, which hands diagnostics to code-action providers, gets them a moment later;
 * asked in between, it offers no fix yet (as the light bulb would show none yet). A timeout names the fixes offered.
 */
async function quickFix(document: vscode.TextDocument, range: vscode.Range, title: (t: string) => boolean): Promise<vscode.CodeAction> {
  let offered: string[] = [];
  try {
    return await until('the quick fix', async () => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        document.uri,
        range,
        vscode.CodeActionKind.QuickFix.value,
      );
      offered = actions.map((a) => a.title);
      return actions.find((a) => title(a.title));
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; offered: ${offered.join(', ') || 'none'}`, { cause: error });
  }
}

const label = (item: vscode.CompletionItem) => (typeof item.label === 'string' ? item.label : item.label.label);

describe('authoring action prompts in the editor', () => {
  before(async () => {
    await vscode.extensions.getExtension('codewiki.codewiki')!.activate();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('completes tool names with descriptions, parameters under input:, and {variables} in scope', async () => {
    const editor = await open('complete.yaml');
    const document = editor.document;
    await editor.edit((b) => b.insert(positionOf(document, 'tool_chain:\n'), '  - tool: rea\n    input:\n      \n'));

    const tools = await until('tool completions', async () => {
      const items = await completionLabels(document, positionOf(document, '  - tool: rea'));
      return items.some((i) => label(i) === 'read_file') ? items : undefined;
    });
    const readFile = tools.find((i) => label(i) === 'read_file')!;
    assert.match(readFile.detail ?? '', /Read one text file/);
    assert.equal(readFile.kind, vscode.CompletionItemKind.Function);
    const outline = tools.find((i) => label(i) === 'outline');
    assert.equal(outline?.kind, vscode.CompletionItemKind.Module, 'other prompts are offered for nested calls');

    await editor.edit((b) => b.replace(new vscode.Range(positionOf(document, '  - tool: rea', 10), positionOf(document, '  - tool: rea')), 'read_file'));
    const params = await completionLabels(document, positionOf(document, '    input:\n      '));
    assert.deepEqual(
      params
        .map(label)
        .filter((l) => ['path', 'start_line', 'end_line'].includes(l))
        .sort(),
      ['end_line', 'path', 'start_line'],
    );

    const variables = await completionLabels(document, positionOf(document, 'About {'));
    assert.ok(
      ['topic', 'plan'].every((v) => variables.map(label).includes(v)),
      variables.map(label).join(),
    );
    assert.equal(variables.find((i) => label(i) === 'plan')?.detail, 'output of step plan (outline)');
  });

  it('shows problems as you type, at the line and column of codewiki validate, with quick fixes', async () => {
    const editor = await open('problems.yaml');
    const document = editor.document;
    await editor.edit((b) => b.replace(new vscode.Range(positionOf(document, 'tool: outline', 6), positionOf(document, 'tool: outline')), 'outlnie'));
    assert.equal(document.isDirty, true, 'not saved: the check runs on the editor text');

    const problem = await until('the unknown-tool diagnostic', () =>
      vscode.languages.getDiagnostics(document.uri).find((d) => d.message.includes('unknown tool "outlnie"')),
    );
    assert.equal(problem.source, 'CodeWiki');
    assert.equal(problem.message.startsWith('tool_chain[0].tool: unknown tool "outlnie"'), true, problem.message);
    assert.equal(document.getText(problem.range), 'outlnie');
    assert.equal(problem.range.start.line, positionOf(document, 'outlnie', 0).line);

    const fix = await quickFix(document, problem.range, (title) => title === 'Change to "outline"');
    assert.ok(fix.edit);
    await vscode.workspace.applyEdit(fix.edit);
    await until('the diagnostic to clear', () => (vscode.languages.getDiagnostics(document.uri).some((d) => d.message.includes('outlnie')) ? undefined : true));

    await editor.edit((b) => b.insert(positionOf(document, 'About {topic}'), ' for {audience}'));
    const undeclared = await until('the undeclared-variable diagnostic', () =>
      vscode.languages.getDiagnostics(document.uri).find((d) => d.message.includes('{audience} is not defined')),
    );
    const declare = await quickFix(document, undeclared.range, (title) => title.startsWith('Declare "audience"'));
    assert.ok(declare.edit);
    await vscode.workspace.applyEdit(declare.edit);
    await until('no problems left', () => (vscode.languages.getDiagnostics(document.uri).length === 0 ? true : undefined));
    assert.match(document.getText(), /- name: audience\n {4}type: text\n/);
  });

  it('hovers a tool and jumps from {variable} to the step that produces it', async () => {
    const { document } = await open('navigate.yaml');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, positionOf(document, 'tool: outline', 7));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /\*\*outline\*\* — action prompt/);
    const targets = await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink>>(
      'vscode.executeDefinitionProvider',
      document.uri,
      positionOf(document, '{plan}', 2),
    );
    const target = targets[0] as vscode.Location;
    assert.equal(document.getText(target.range), 'plan');
    assert.equal(target.range.start.line, positionOf(document, 'output_variable: plan', 0).line);
  });

  it('puts Run, Dry run and Validate above the file; Validate finds no problem, Dry run opens a preview document with the nested prompts, Run accepts the loaded prompt', async () => {
    const { document } = await open('lens.yaml');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
    assert.deepEqual(
      lenses.map((l) => l.command?.title),
      ['▶ Run', 'Dry run', 'Validate'],
    );
    assert.ok(lenses.every((l) => l.range.start.line === 0));

    const validate = lenses[2].command!;
    assert.deepEqual(await vscode.commands.executeCommand(validate.command, ...(validate.arguments ?? [])), []);

    const dryRun = lenses[1].command!;
    const result = await vscode.commands.executeCommand<{ uri: string; prompts: number; status: string }>(dryRun.command, ...(dryRun.arguments ?? []), {
      topic: 'tides',
    });
    assert.equal(result.status, 'success');
    assert.equal(result.prompts, 2);
    const preview = await until('the preview editor', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === result.uri));
    assert.equal(preview.document.uri.scheme, 'codewiki-dry-run');
    const text = preview.document.getText();
    assert.match(text, /prompt for final answer in nested prompt outline \(from step plan\)/);
    assert.match(text, /Outline tides/);
    assert.match(text, /About tides/);
    // The preview is the content provider's document (dryRunDocuments.ts), not an untitled buffer the user could save.
    assert.equal(preview.document.isUntitled, false);

    // ▶ Run accepts the prompt as the catalog loaded it and names it: the id it posts to the CodeWiki view, whose
    // form for that id the webview tests check (this host cannot see into the view).
    const run = lenses[0].command!;
    assert.equal(await vscode.commands.executeCommand(run.command, ...(run.arguments ?? [])), 'lens');
  });
});

import * as vscode from 'vscode';
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from '../../core/agent/approvalGate';

const ALLOW = 'Allow once';
/** Long diffs are cut in the dialog; the whole change is what the tool then makes. */
const MAX_DETAIL_CHARS = 3_000;

/**
 * Approvals for calls run by hand in the Tool Tester: a modal dialog with the exact change. A call
 * tried by hand still writes real files and runs real commands, so it asks like the agent does;
 * closing the dialog denies.
 */
export const modalApprovalGate: ApprovalGate = {
  async request(approval: ApprovalRequest): Promise<ApprovalDecision> {
    const choice = await vscode.window.showWarningMessage(
      `Run ${approval.displayName} (${approval.kind})?`,
      { modal: true, detail: `${approval.why}\n\n${previewText(approval)}` },
      ALLOW,
    );
    return choice === ALLOW ? { decision: 'allow-once' } : { decision: 'deny', reason: 'Denied in the Tool Tester.' };
  },
};

function previewText({ preview }: ApprovalRequest): string {
  const text = preview.type === 'diff' ? preview.diff : preview.type === 'command' ? `$ ${preview.command}\n(in ${preview.cwd})` : preview.text;
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}\n… (cut)` : text;
}

import { createInterface } from 'node:readline/promises';
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from '../../core/agent';
import { renderPreview } from '../../core/tools/workspace-write/toolPreview';

const MAX_PREVIEW_LINES = 200;

/** Asks on the terminal: the exact change first, then y (once), a (for the rest of this run) or N. */
export function terminalApprovalGate(stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): ApprovalGate {
  return {
    async request(approval: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision> {
      stderr.write(
        `\n? ${approval.displayName} (${approval.tool}) wants to ${approval.preview.type === 'command' ? 'run a command' : approval.preview.type === 'diff' ? `${approval.preview.action} ${approval.preview.path}` : 'run'}:\n`,
      );
      stderr.write(`${shorten(renderPreview(approval.preview))}\n`);
      const choices = approval.canAllowForConversation ? '[y]es once / [a]llow for this run / [N]o' : '[y]es once / [N]o';
      const rl = createInterface({ input: stdin, output: stderr });
      try {
        const answer = (await rl.question(`Allow? ${choices}: `, { signal })).trim().toLowerCase();
        if (answer === 'y' || answer === 'yes') return { decision: 'allow-once' };
        if (approval.canAllowForConversation && (answer === 'a' || answer === 'always')) return { decision: 'allow-conversation' };
        return { decision: 'deny', reason: 'the user said no' };
      } finally {
        rl.close();
      }
    },
  };
}

function shorten(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length <= MAX_PREVIEW_LINES) return lines.join('\n');
  return [...lines.slice(0, MAX_PREVIEW_LINES), `… ${lines.length - MAX_PREVIEW_LINES} more lines`].join('\n');
}

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/**
 * A CodeWiki page: the sidebar chat (`main.js`) or the Tool Tester (`tester.js`). CSP: nothing by default, scripts only with this load's nonce, styles and
 * fonts only from the extension's webview folder, images only from there or data: URIs, so
 * model output can never load a remote image or script (security.md #4, #5).
 */
export function webviewHtml(webview: vscode.Webview, webviewRoot: vscode.Uri, script = 'main.js', title = 'CodeWiki'): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, name)).toString();
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${title}</title>
</head>
<body>
<script nonce="${nonce}" src="${asset(script)}"></script>
</body>
</html>`;
}

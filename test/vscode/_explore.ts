import { startCodeServer } from './codeServer';
import { launchBrowser, Workbench } from './workbench';
(async () => {
  const trusted = process.argv[2] !== 'untrusted';
  const t0 = Date.now();
  const server = await startCodeServer({ workspace: '/tmp/cwx/ws', trusted });
  console.log('server', server.url, Date.now() - t0);
  const browser = await launchBrowser();
  try {
    const wb = await Workbench.open(browser, server.workbenchUrl());
    console.log('workbench', Date.now() - t0);
    const item = wb.activityBarItem('CodeWiki');
    await item.waitFor({ timeout: 30000 });
    console.log('item outer', await item.evaluate((e) => e.parentElement!.outerHTML.slice(0, 600)));
    await wb.openCodeWikiView();
    console.log('webview', Date.now() - t0);
    console.log('item after', await item.evaluate((e) => e.parentElement!.outerHTML.slice(0, 600)));
    console.log(await wb.webview().locator('html').evaluate((e) => e.outerHTML.slice(0, 400)));
    console.log('status', await wb.page.locator('.statusbar').innerText());
    console.log('banner', await wb.page.locator('.monaco-workbench .banner').count(), await wb.page.locator('.monaco-dialog-box').count());
    await wb.screenshot('/tmp/cwx/shot-' + (trusted ? 't' : 'u') + '.png');
    await wb.runCommand('CodeWiki: New Chat');
    console.log('cmd ok', Date.now() - t0);
    await wb.reload();
    console.log('reloaded', Date.now() - t0);
    console.log('item after reload', await item.evaluate((e) => e.parentElement!.outerHTML.slice(0, 300)));
    await wb.waitForWebview();
    console.log('webview back', Date.now() - t0);
    await wb.screenshot('/tmp/cwx/shot2-' + (trusted ? 't' : 'u') + '.png');
  } finally {
    await browser.close();
    await server.stop();
    console.log('stopped', Date.now() - t0);
  }
})().catch((e) => { console.error(e); process.exit(1); });

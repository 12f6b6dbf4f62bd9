import { parseArgs } from 'node:util';
import { benchAgentLoop } from './agentLoop';
import { benchCodeIndex } from './codeIndexBench';
import { benchCpuSettings } from './cpuSettingsBench';
import { benchDraftPrefill } from './draftPrefillBench';
import { benchExecutorOverhead } from './executorOverhead';
import { benchExtensionActivation } from './extensionActivation';
import { benchHistoryAppend } from './historyAppend';
import { benchHostileMarkdown } from './hostileMarkdownBench';
import { benchIndexMatches } from './indexMatchesBench';
import { benchWebview } from './webviewBench';
import { benchFileSummaries } from './fileSummariesThroughput';
import { benchParallelEfficiency } from './parallelEfficiency';
import { benchPromptCache } from './promptCacheBench';
import { type BenchRow, printTable } from './benchTable';
import { benchStreamingOverhead } from './streamingOverhead';
import { benchTextProtocol } from './textProtocol';
import { benchTokenEconomy } from './tokenEconomy';
import { benchWikiStructure } from './wikiBench';
import { benchWikiProse } from './wikiProseBench';

/**
 * `npm run bench [-- --path DIR] [-- --only WORD]`: prints the figures the issues ask for. Timing
 * goals live here, never in tests. `--path` measures get_file_summaries on an existing tree (for
 * example node_modules) instead of a generated one; `--only webview` runs the sections whose name
 * contains the word (repeatable).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { path: { type: 'string' }, files: { type: 'string' }, only: { type: 'string', multiple: true } } });
  const rows: BenchRow[] = [];
  const section = async (name: string, run: () => Promise<BenchRow[]>) => {
    if (values.only && !values.only.some((word) => name.includes(word))) return;
    process.stderr.write(`running: ${name}…\n`);
    rows.push(...(await run()));
  };
  await section('executor overhead', () => benchExecutorOverhead());
  await section('parallel efficiency', () => benchParallelEfficiency());
  await section('get_file_summaries throughput', () => benchFileSummaries({ path: values.path, files: values.files ? Number(values.files) : undefined }));
  await section('token economy', () => benchTokenEconomy());
  await section('history append', () => benchHistoryAppend());
  await section('code index', () => benchCodeIndex());
  await section('index matches', () => benchIndexMatches());
  await section('wiki structure', () => benchWikiStructure());
  await section('webview in Chromium', () => benchWebview());
  await section('hostile Markdown streamed in the webview', () => benchHostileMarkdown());
  await section('extension bundle and activation', () => benchExtensionActivation());
  await section('agent loop', () => benchAgentLoop());
  await section('text tool protocol', () => benchTextProtocol());
  await section('streaming overhead on the local model', () => benchStreamingOverhead());
  await section('prompt cache on the local model', () => benchPromptCache());
  await section('drafts computed ahead on the local model', () => benchDraftPrefill());
  await section('cpu settings of the local model', () => benchCpuSettings());
  await section('wiki prose on the local model', () => benchWikiProse());
  printTable(rows);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

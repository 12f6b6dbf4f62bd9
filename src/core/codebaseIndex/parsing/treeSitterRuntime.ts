import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser, Query } from 'web-tree-sitter';
import type { TagQuery } from '../languages/tagQuery';

/**
 * web-tree-sitter and the grammars of @vscode/tree-sitter-wasm (Microsoft's prebuilt wasm grammars, the
 * ones VS Code itself uses), loaded once per thread and on first use: the runtime costs ~50 ms and a
 * grammar 10–100 ms, which a workspace with no Rust never pays for Rust.
 */

export interface LoadedGrammar {
  parser: Parser;
  query: Query;
}

let runtime: Promise<void> | undefined;
const grammars = new Map<string, Promise<LoadedGrammar>>();
/** Grammars that failed to load in this thread, with why: their files fall back to the regex outline, and the index says so. */
export const grammarFailures = new Map<string, string>();

export function loadGrammar(tags: TagQuery): Promise<LoadedGrammar> {
  let loaded = grammars.get(tags.grammar);
  if (!loaded) {
    loaded = (async () => {
      await (runtime ??= Parser.init({ locateFile: () => runtimeWasmPath() }));
      const language = await Language.load(join(grammarDirectory(), `tree-sitter-${tags.grammar}.wasm`));
      const parser = new Parser();
      parser.setLanguage(language);
      return { parser, query: new Query(language, tags.query) };
    })();
    // A failed load is retried next time instead of being remembered.
    loaded.then(
      () => grammarFailures.delete(tags.grammar),
      (error: unknown) => {
        grammars.delete(tags.grammar);
        grammarFailures.set(tags.grammar, (error as Error)?.message ?? String(error));
      },
    );
    grammars.set(tags.grammar, loaded);
  }
  return loaded;
}

/**
 * Where the wasm files are: beside the bundle (`dist/wasm`, copied there by scripts/build.mjs, and the
 * only place a packaged extension has them), else in node_modules (tests and `tsx` runs from source).
 */
function grammarDirectory(): string {
  const bundled = join(__dirname, 'wasm');
  if (existsSync(join(bundled, 'tree-sitter-typescript.wasm'))) return bundled;
  return join(dirname(resolvePackage('@vscode/tree-sitter-wasm/package.json')), 'wasm');
}

function runtimeWasmPath(): string {
  const bundled = join(__dirname, 'wasm', 'web-tree-sitter.wasm');
  if (existsSync(bundled)) return bundled;
  return join(dirname(resolvePackage('web-tree-sitter')), 'web-tree-sitter.wasm');
}

/** Resolved at run time only: a bundle never takes this path, so the bundler need not (and must not) follow it. */
function resolvePackage(specifier: string): string {
  return createRequire(__filename).resolve(specifier);
}

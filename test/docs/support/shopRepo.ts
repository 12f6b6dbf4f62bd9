/**
 * A small shop: four folders of TypeScript that import each other and a package (`plugin`, with its own
 * package.json), so the wiki has five module pages and four shards do not split them evenly.
 */
export function shopRepoFiles(): Record<string, string> {
  const folders: Record<string, string[]> = {
    util: ['strings', 'numbers', 'dates', 'ids'],
    store: ['cart', 'orders', 'stock', 'prices'],
    core: ['checkout', 'payment', 'refunds', 'receipts'],
    cli: ['main', 'args', 'commands', 'output'],
    'plugin/src': ['index', 'hooks'],
  };
  const files: Record<string, string> = {
    'README.md': '# Shop\n\nSells things.\n',
    'plugin/package.json': '{ "name": "shop-plugin", "version": "1.0.0", "main": "src/index.ts" }\n',
  };
  for (const [folder, names] of Object.entries(folders)) {
    const up = '../'.repeat(folder.split('/').length);
    names.forEach((name, index) => {
      const previous = names[index - 1];
      const imports = [
        folder === 'util' ? '' : `import { stringsValue } from '${up}util/strings';`,
        previous ? `import { ${previous}Value } from './${previous}';` : '',
      ].filter(Boolean);
      const uses = [folder === 'util' ? '' : 'stringsValue()', previous ? `${previous}Value()` : ''].filter(Boolean);
      files[`${folder}/${name}.ts`] = [
        ...imports,
        '',
        `/** The ${name} part of the shop. */`,
        `export function ${name}Value(): string {`,
        `  return [${uses.join(', ')}].join('') + '${name}';`,
        '}',
        '',
      ].join('\n');
    });
  }
  return files;
}

import { parseArgs } from 'node:util';
import { EXIT } from '../cliErrors';
import { loadEngine } from './loadEngine';

/** `codewiki tools`: every tool with its metadata and the JSON Schema a model would be sent. */
export async function toolsCommand(argv: string[], io: { stdout: NodeJS.WriteStream }): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { workspace: { type: 'string', short: 'w' }, json: { type: 'boolean' } } });
  const engine = await loadEngine(values.workspace);
  const tools = engine.registry.list().map(({ metadata }) => ({ ...metadata, parameters: engine.registry.jsonSchema(metadata.name) }));
  if (values.json) {
    io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
    return EXIT.ok;
  }
  for (const tool of tools) {
    io.stdout.write(`${tool.name}  [${tool.category}, ${tool.kind}, timeout ${tool.timeoutMs / 1000} s]\n  ${tool.description}\n`);
    io.stdout.write(`${JSON.stringify(tool.parameters, null, 2).replace(/^/gm, '  ')}\n\n`);
  }
  return EXIT.ok;
}

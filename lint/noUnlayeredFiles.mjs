import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORE_TIERS, tierOf } from './coreTiers.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Every file of src/core sits in a tier of the floor plan (coreTiers.mjs), so the import zones cover it: a new
 * folder is placed in a tier on purpose, not left where any tier may import it. Copilot Chat's
 * no-unlayered-files does the same for its layers.
 */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Require every file in src/core to belong to a tier of the floor plan.' },
    schema: [],
    messages: {
      unlayered:
        "{{file}} is in no tier of src/core's floor plan. Move it into a tier's folder, or add its folder to a tier in lint/coreTiers.mjs and docs/architecture.md (tiers: {{tiers}}).",
    },
  },
  create(context) {
    const file = relative(ROOT, context.physicalFilename).split(sep).join('/');
    if (!file.startsWith('src/core/') || tierOf(file) >= 0) return {};
    return {
      Program(node) {
        const tiers = CORE_TIERS.map((tier, index) => `${index} ${tier.name}`).join(', ');
        context.report({ node, messageId: 'unlayered', data: { file, tiers } });
      },
    };
  },
};

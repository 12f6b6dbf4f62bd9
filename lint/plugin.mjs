import noImportCycles from './noImportCycles.mjs';
import noUnlayeredFiles from './noUnlayeredFiles.mjs';

/** The project's own lint rules (`codewiki/…` in eslint.config.mjs); test/lint/layerRules.test.ts proves each fires. */
export default {
  meta: { name: 'codewiki' },
  rules: {
    'no-import-cycles': noImportCycles,
    'no-unlayered-files': noUnlayeredFiles,
  },
};

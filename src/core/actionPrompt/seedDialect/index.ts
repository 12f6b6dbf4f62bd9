export { type DialectOptions, parseAllowedEnv } from './dialectOptions';
export { writtenPath } from './dialectPositions';
export { readActionPromptYaml } from './readActionPromptYaml';
export { isSeedDialect } from './translateSeedDialect';
export { dialectFieldsAt, INPUT_TYPES, STRATEGIES } from './dialectFields';

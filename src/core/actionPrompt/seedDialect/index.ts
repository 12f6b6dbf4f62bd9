export { type DialectOptions, NO_ENVIRONMENT, parseAllowedEnv } from './dialectOptions';
export { DialectPositions, writtenPath } from './dialectPositions';
export { readActionPromptYaml } from './readActionPromptYaml';
export { isSeedDialect } from './translateSeedDialect';
export { type DialectField, dialectFieldsAt, INPUT_TYPES, STRATEGIES } from './dialectFields';

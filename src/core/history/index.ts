/** Public surface of the conversation history; everything else in this folder is an implementation detail. */
export { StateManager } from './stateManager';
export type { StoreOptions } from './conversationStore';
export type * from './conversationTypes';
export { newMessageId } from './conversationIds';

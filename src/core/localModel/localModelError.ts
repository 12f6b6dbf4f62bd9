/** Starting or finding the local model failed, in words for the user (the last lines of serve.sh's output included). */
export class LocalModelError extends Error {
  override readonly name = 'LocalModelError';
}

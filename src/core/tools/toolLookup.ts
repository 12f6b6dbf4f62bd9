/** What the compiler needs to know about tools; the ToolRegistry provides it. */
export interface ToolLookup {
  has(name: string): boolean;
  names(): string[];
  parameterNames(name: string): string[];
  requiredParameterNames(name: string): string[];
}

/** The tool-calling tester (seed 004): what the model is told, a tool call tried by hand, and a probe of the user's server. */
export { previewToolPrompt, type PromptPreview, type PromptPreviewInput } from './previewToolPrompt';
export {
  parseManualCall,
  type ApprovalNeeded,
  type ManualCallCheck,
  type ManualCallContext,
  type ManualCallForm,
  type ManualCallParse,
} from './parseManualCall';
export { runManualCall, type ManualRunDependencies, type ManualRunResult } from './runManualCall';
export { probeServer, PROBE_QUESTION, PROBE_TOOL, type ProbeAttempt, type ProbeOptions, type ProbeOutcome, type ProbeResult } from './probeServer';
export { RecordingFetch, type RecordedExchange } from './recordingFetch';

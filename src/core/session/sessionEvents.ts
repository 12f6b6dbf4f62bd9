import type { HostToWebview } from '../../shared/protocol';

/** The session reports to whatever shows it (the webview through the extension, or a test). */
export type SessionListener = (message: HostToWebview) => void;

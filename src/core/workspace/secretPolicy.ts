import ignore, { type Ignore } from 'ignore';

/** The deny-list from security promise #7, written as gitignore patterns for messages and docs. */
export const DEFAULT_SECRET_PATTERNS: readonly string[] = ['.env*', '*.pem', '*.key', 'id_rsa*', '.ssh/'];

/**
 * Decides which workspace paths hold credentials. Denied paths are never listed, summarised,
 * searched or read. The deny check is hand-written rather than run through `ignore` because the
 * walker asks it for every one of tens of thousands of files; the allow-list (rare, user-written
 * gitignore patterns) only runs for paths that were denied.
 */
export class SecretPolicy {
  private readonly allow: Ignore | undefined;

  constructor(allowPatterns: readonly string[] = []) {
    const patterns = allowPatterns.map((p) => p.trim()).filter((p) => p && !p.startsWith('#'));
    this.allow = patterns.length > 0 ? ignore().add(patterns) : undefined;
  }

  get hasAllowList(): boolean {
    return this.allow !== undefined;
  }

  /** `relativePath` is posix and relative to a workspace root; '.' or '' is the root itself. */
  isDenied(relativePath: string, isDirectory = false): boolean {
    if (relativePath === '' || relativePath === '.') return false;
    if (!matchesDenyList(relativePath)) return false;
    return !this.isAllowed(relativePath, isDirectory);
  }

  /**
   * The walker's fast path: an entry whose parent folder was already accepted. Without an
   * allow-list, denied folders are never entered, so only the entry's own name needs checking.
   */
  isDeniedEntry(relativePath: string, name: string, isDirectory = false): boolean {
    if (this.allow) return this.isDenied(relativePath, isDirectory);
    return isDeniedSegment(name.toLowerCase());
  }

  private isAllowed(relativePath: string, isDirectory: boolean): boolean {
    if (!this.allow) return false;
    return this.allow.ignores(isDirectory ? `${relativePath}/` : relativePath);
  }
}

/**
 * Any matching segment denies the path, as in gitignore: a folder named `.ssh` or `.env.d`
 * hides everything under it. Lower-cased so `SERVER.PEM` on a case-insensitive disk is caught.
 */
function matchesDenyList(relativePath: string): boolean {
  return relativePath.toLowerCase().split('/').some(isDeniedSegment);
}

/** `segment` is lower-case. */
function isDeniedSegment(segment: string): boolean {
  return segment === '.ssh' || segment.startsWith('.env') || segment.startsWith('id_rsa') || segment.endsWith('.pem') || segment.endsWith('.key');
}

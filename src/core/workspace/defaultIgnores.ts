/**
 * Paths every file tool skips even without a .gitignore: generated output, dependencies, VCS
 * metadata and lockfiles are large, never what the user means by "the code", and would crowd
 * real sources out of the model's context. Names are matched exactly (sets) because the walker
 * asks for every entry of a 20,000-file tree.
 */
const IGNORED_DIRECTORY_NAMES = new Set(['.git', '.hg', '.svn', 'node_modules', 'dist', 'out', 'build', 'coverage', '.next', 'target', '__pycache__', '.venv']);

const IGNORED_FILE_NAMES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'Cargo.lock',
  'poetry.lock',
  'Pipfile.lock',
  'composer.lock',
  'Gemfile.lock',
  'go.sum',
  '.DS_Store',
]);

const MINIFIED_SUFFIXES = ['.min.js', '.min.css', '.min.mjs', '.map'];

/**
 * Known binary formats, skipped without opening them. Anything else is sniffed for a NUL byte
 * when read, which catches binaries with unusual extensions.
 */
const BINARY_EXTENSIONS = new Set([
  // images and media
  'png',
  'jpg',
  'jpeg',
  'gif',
  'bmp',
  'ico',
  'icns',
  'webp',
  'tif',
  'tiff',
  'psd',
  'heic',
  'avif',
  'mp3',
  'mp4',
  'm4a',
  'wav',
  'ogg',
  'flac',
  'avi',
  'mov',
  'mkv',
  'webm',
  // archives and packages
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  '7z',
  'rar',
  'tar',
  'jar',
  'war',
  'ear',
  'vsix',
  'nupkg',
  'whl',
  'deb',
  'rpm',
  'dmg',
  'iso',
  // compiled code and libraries
  'exe',
  'dll',
  'so',
  'dylib',
  'a',
  'lib',
  'o',
  'obj',
  'class',
  'pyc',
  'pyo',
  'wasm',
  'node',
  'bin',
  'dat',
  // documents, fonts, databases
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ttf',
  'otf',
  'woff',
  'woff2',
  'eot',
  'sqlite',
  'sqlite3',
  'db',
  'parquet',
  'pkl',
  'npy',
  'npz',
  'pt',
  'onnx',
  'safetensors',
]);

/** The folder names every walk skips, for a host's own file search to skip as well. */
export function defaultIgnoredDirectoryNames(): string[] {
  return [...IGNORED_DIRECTORY_NAMES];
}

export function isDefaultIgnoredDirectory(name: string): boolean {
  return IGNORED_DIRECTORY_NAMES.has(name);
}

export function isDefaultIgnoredFile(name: string): boolean {
  if (IGNORED_FILE_NAMES.has(name)) return true;
  if (hasBinaryExtension(name)) return true;
  return MINIFIED_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

function hasBinaryExtension(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return false;
  return BINARY_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

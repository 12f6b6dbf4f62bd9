/**
 * Codicon code points for the icons the app uses. Icons render as `data-icon` + a CSS `content: attr()`
 * rule instead of the codicon classes, so each shadow root needs one small rule rather than codicon.css,
 * and the glyphs never end up in copied text.
 */
const CODEPOINTS = {
  account: 0xeb99,
  add: 0xea60,
  beaker: 0xea79,
  book: 0xeaa4,
  check: 0xeab2,
  'chevron-down': 0xeab4,
  'chevron-right': 0xeab6,
  'circle-outline': 0xeabc,
  'circle-slash': 0xeabd,
  close: 0xea76,
  'comment-discussion': 0xeac7,
  copy: 0xebcc,
  'debug-step-over': 0xead6,
  'debug-stop': 0xead7,
  diff: 0xeae1,
  edit: 0xea73,
  error: 0xea87,
  export: 0xebac,
  file: 0xea7b,
  'file-media': 0xeaea,
  'folder-opened': 0xeaf7,
  gear: 0xeaf8,
  history: 0xea82,
  info: 0xea74,
  insert: 0xec11,
  key: 0xeb11,
  lightbulb: 0xea61,
  loading: 0xeb19,
  mention: 0xeb1f,
  'new-file': 0xea7f,
  output: 0xeb9d,
  pass: 0xeba4,
  play: 0xeb2c,
  refresh: 0xeb37,
  'run-all': 0xeb9e,
  save: 0xeb4b,
  search: 0xea6d,
  selection: 0xeb85,
  send: 0xec0f,
  shield: 0xeb53,
  sparkle: 0xec10,
  'symbol-class': 0xeb5b,
  terminal: 0xea85,
  tools: 0xeb6d,
  trash: 0xea81,
  warning: 0xea6c,
} as const;

export type IconName = keyof typeof CODEPOINTS;

export function glyph(name: IconName): string {
  return String.fromCodePoint(CODEPOINTS[name]);
}

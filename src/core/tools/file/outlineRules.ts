/**
 * Per-language patterns for `outline.ts`: how a file's leading doc comment looks, and one
 * global multiline regex that matches a top-level declaration line. Regexes, not parsers, so
 * 20,000 files outline in well under a second; indentation limits keep members out.
 */

export type CommentStyle = 'c' | 'hash' | 'python' | 'none';

export interface OutlineRules {
  comment: CommentStyle;
  /** Global + multiline; each match is one declaration line. */
  declarations: RegExp;
  /** Declaration-looking lines that are noise, e.g. `const x = require('x')`. */
  skip?: RegExp;
}

const C_LIKE_MEMBERS =
  String.raw`^\s{0,4}(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|internal|abstract|final|static|sealed|open|data|partial|override|suspend|inline|export|async|virtual)\s+)*(?:class|interface|enum|record|object|struct|fun|trait|namespace|package|extension)\b.*$` +
  String.raw`|^\s{0,4}(?:public|protected)\s+(?:(?:static|final|abstract|override|async|virtual|synchronized)\s+)*[\w<>\[\],.? ]+\s+\w+\s*\(.*$`;

const JS_RULES: OutlineRules = {
  comment: 'c',
  declarations:
    /^(?:export\b|(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function|class|interface|type\s+\w|enum|const|let|var|namespace)\b|module\.exports\b|exports\.\w+\s*=).*$/gm,
  skip: /=\s*require\(/,
};

const RULES: Record<string, OutlineRules> = {
  typescript: JS_RULES,
  javascript: JS_RULES,
  python: {
    comment: 'python',
    declarations: /^(?:(?:async\s+)?def\s+\w+|class\s+\w+|__all__\s*=|[A-Z_][A-Z0-9_]*\s*(?::[^=\n]*)?=).*$/gm,
  },
  go: { comment: 'c', declarations: /^(?:package|func|type|const|var)\b.*$/gm },
  rust: {
    comment: 'c',
    declarations:
      /^(?:pub(?:\([^)\n]*\))?\s+)?(?:(?:async|unsafe|const|extern\s+"[^"\n]*")\s+)*(?:fn|struct|enum|trait|impl|mod|type|const|static|union|macro_rules!)[\s<!].*$/gm,
  },
  java: { comment: 'c', declarations: new RegExp(C_LIKE_MEMBERS, 'gm') },
  kotlin: { comment: 'c', declarations: new RegExp(C_LIKE_MEMBERS, 'gm') },
  csharp: { comment: 'c', declarations: new RegExp(C_LIKE_MEMBERS, 'gm') },
  scala: { comment: 'c', declarations: new RegExp(C_LIKE_MEMBERS, 'gm') },
  swift: { comment: 'c', declarations: new RegExp(C_LIKE_MEMBERS, 'gm') },
  dart: { comment: 'c', declarations: new RegExp(C_LIKE_MEMBERS, 'gm') },
  c: {
    comment: 'c',
    declarations:
      /^(?:(?:struct|class|enum|union|typedef|namespace|template)\b|#define\s+\w+|(?!(?:return|if|else|while|for|switch|case|do|goto|using)\b)[A-Za-z_][\w:<>*&, ]*[ *&]~?[A-Za-z_][\w:]*\s*\().*$/gm,
  },
  ruby: { comment: 'hash', declarations: /^\s{0,2}(?:class|module|def)\s+\S.*$/gm },
  php: {
    comment: 'c',
    declarations:
      /^(?:namespace\s+\S|\s{0,4}(?:(?:abstract|final|public|private|protected|static|readonly)\s+)*(?:function|class|interface|trait|enum)\s+\w).*$/gm,
  },
  shell: {
    comment: 'hash',
    declarations: /^(?:function\s+[\w:.-]+|[\w:.-]+\s*\(\s*\)|(?:export\s+|readonly\s+)?[A-Z_][A-Z0-9_]*=).*$/gm,
  },
};
RULES.cpp = RULES.c as OutlineRules;

export function outlineRulesFor(language: string): OutlineRules | undefined {
  return RULES[language];
}

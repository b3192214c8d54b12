/**
 * The rules of the secret scan, and gitleaks' rules (secret-gitleaks-rules.ts, generated) made
 * into them with gitleaks' own semantics: a rule's regular expression runs over the whole
 * text; the secret is its `secretGroup`, else its first non-empty group, else the match; a
 * secret must have more Shannon entropy than the rule's threshold; gitleaks' global allowlist
 * and then the rule's allowlists (regexes on the secret, the match or the line; stopwords;
 * paths; AND/OR) withdraw a finding. Not taken over: `gitleaks:allow` comments (a repository
 * must not be able to wave its own text past the scan) and decoding of base64/hex segments.
 */
import { GITLEAKS } from './secret-gitleaks-rules.ts';
import type { AllowlistData, RegexData, RuleData } from './secret-rule-types.ts';

/** One text as the rules see it. */
export interface ScanText {
  /** The repository path (or what names the text). */
  readonly path: string;
  readonly content: string;
  /** True for source code (see `isCode`): there only the rules of `confidence: 'format'` run. */
  readonly code: boolean;
}

export interface SecretRule {
  /** What a notice names: `gitleaks/<id>` or `supervisor/<id>`. */
  readonly id: string;
  /** Lower case; the rule runs only on a text containing one of them (empty: on every text). */
  readonly keywords: readonly string[];
  /**
   * 'format': a token's own shape (a prefix, a checksum, a PEM block) or a strict assignment;
   * runs on every text. 'generic': a value under a name, in configuration; not on source code,
   * where such names mostly hold variables and the rule would mostly be wrong.
   */
  readonly confidence: 'format' | 'generic';
  /** True when the rule reports a secret in `text`. */
  found(text: ScanText): boolean;
}

/** The gitleaks rules that are generic in the sense above (the rest are a vendor's token formats). */
const GENERIC_GITLEAKS = new Set(['generic-api-key']);

const compile = (data: RegexData, global = false) => new RegExp(data.source, global ? `${data.flags}g` : data.flags);

/** Shannon entropy in bits per character, as gitleaks counts it. */
export function shannonEntropy(value: string): number {
  if (!value) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

interface Finding {
  readonly secret: string;
  readonly match: string;
  readonly line: string;
  readonly path: string;
}

class Allowlist {
  private readonly and: boolean;
  private readonly target: 'secret' | 'match' | 'line';
  private readonly paths?: RegExp[];
  private readonly regexes?: RegExp[];
  private readonly stopwords?: readonly string[];
  private readonly commits: boolean;

  constructor(data: AllowlistData) {
    this.and = data.condition === 'AND';
    this.target = data.regexTarget ?? 'secret';
    if (data.paths) this.paths = data.paths.map((r) => compile(r));
    if (data.regexes) this.regexes = data.regexes.map((r) => compile(r));
    if (data.stopwords) this.stopwords = data.stopwords;
    this.commits = data.commits === true;
  }

  private pathAllowed(path: string): boolean {
    return path !== '' && !!this.paths?.some((re) => re.test(path));
  }

  /** gitleaks' checkCommitOrPathAllowed: the whole text is skipped. A text has no commit. */
  allowsText(path: string): boolean {
    if (!this.and) return this.pathAllowed(path);
    if (this.regexes || this.stopwords) return false;
    if (this.commits) return false;
    return !!this.paths && this.pathAllowed(path);
  }

  /** gitleaks' checkFindingAllowed. */
  allowsFinding(finding: Finding): boolean {
    const target = finding[this.target];
    const regexAllowed = target !== '' && !!this.regexes?.some((re) => re.test(target));
    const lower = finding.secret.toLowerCase();
    const stopword = finding.secret !== '' && !!this.stopwords?.some((word) => lower.includes(word));
    if (!this.and) return regexAllowed || stopword || this.pathAllowed(finding.path);
    const checks: boolean[] = [];
    if (this.commits) checks.push(false);
    if (this.paths) checks.push(this.pathAllowed(finding.path));
    if (this.regexes) checks.push(regexAllowed);
    if (this.stopwords) checks.push(stopword);
    return checks.length > 0 && checks.every(Boolean);
  }
}

/** Whether gitleaks' global allowlist skips the whole text (its paths: lock files, images, vendored code); asked once a text. */
const allowedTexts = new WeakMap<ScanText, boolean>();
function globallyAllowed(global: Allowlist, text: ScanText): boolean {
  let allowed = allowedTexts.get(text);
  if (allowed === undefined) allowedTexts.set(text, (allowed = global.allowsText(text.path)));
  return allowed;
}

/** The line(s) holding text[start, end). */
function linesAround(content: string, start: number, end: number): string {
  const from = content.lastIndexOf('\n', start - 1) + 1;
  const to = content.indexOf('\n', end);
  return content.slice(from, to < 0 ? content.length : to);
}

/** The secret of a match, as gitleaks picks it. */
function secretOf(match: RegExpExecArray, secretGroup: number | undefined): string | undefined {
  if (match.length < 2) return match[0].replace(/^\n+|\n+$/g, '');
  if (secretGroup) return match[secretGroup];
  for (let i = 1; i < match.length; i++) if (match[i]) return match[i];
  return match[0].replace(/^\n+|\n+$/g, '');
}

/**
 * gitleaks' semi-generic rules start with a lazy `[\w.-]{0,50}?` (some twice over): it can
 * match nothing, so a text holds a match of the rule exactly when it holds one of the rest,
 * which starts with a key word the engine can skip to, instead of trying every position. The
 * prefix only widens the match (which a `match` allowlist reads): `widen` puts it back.
 */
const LAZY_PREFIX = '[\\w.-]{0,50}?';
function withoutLazyPrefix(data: RegexData): { regex: RegExp; widen: number } {
  if (!data.source.startsWith(LAZY_PREFIX)) return { regex: compile(data, true), widen: 0 };
  let rest = data.source.slice(LAZY_PREFIX.length);
  let widen = 50;
  if (rest.startsWith(`(?:${LAZY_PREFIX}`)) {
    rest = `(?:${rest.slice(3 + LAZY_PREFIX.length)}`;
    widen = 100;
  }
  return { regex: compile({ source: rest, flags: data.flags }, true), widen };
}

/** Where the lazy prefix would have started the match: as far back as `widen` word characters, dots and dashes go. */
function widenedStart(content: string, start: number, widen: number): number {
  let from = start;
  while (from > 0 && start - from < widen && /[\w.-]/.test(content[from - 1]!)) from--;
  return from;
}

/** One gitleaks rule, with gitleaks' global allowlist. */
export function gitleaksRule(data: RuleData, global: Allowlist): SecretRule {
  const { regex, widen } = data.regex ? withoutLazyPrefix(data.regex) : { regex: undefined, widen: 0 };
  const path = data.path && compile(data.path);
  const allowlists = (data.allowlists ?? []).map((a) => new Allowlist(a));
  const entropy = data.entropy ?? 0;
  return {
    id: `gitleaks/${data.id}`,
    keywords: data.keywords,
    confidence: GENERIC_GITLEAKS.has(data.id) ? 'generic' : 'format',
    found(text) {
      // The rule's own path first: a path rule (pkcs12-file) runs on every text, and most fail it at once.
      if (path && !path.test(text.path)) return false;
      if (globallyAllowed(global, text) || allowlists.some((a) => a.allowsText(text.path))) return false;
      if (!regex) return !!path;
      regex.lastIndex = 0;
      for (let match = regex.exec(text.content); match; match = regex.exec(text.content)) {
        if (match[0] === '') regex.lastIndex++;
        const secret = secretOf(match, data.secretGroup);
        if (secret === undefined) continue;
        if (entropy && shannonEntropy(secret) <= entropy) continue;
        const start = widen ? widenedStart(text.content, match.index, widen) : match.index;
        const whole = text.content.slice(start, match.index + match[0].length).replace(/^\n+|\n+$/g, '');
        const finding = { secret, match: whole, line: linesAround(text.content, start, match.index + match[0].length), path: text.path };
        if (global.allowsFinding(finding) || allowlists.some((a) => a.allowsFinding(finding))) continue;
        return true;
      }
      return false;
    },
  };
}

/** gitleaks' default rules, converted (secret-gitleaks-rules.ts names the upstream version). */
export function gitleaksRules(): SecretRule[] {
  const global = new Allowlist(GITLEAKS.allowlist);
  return GITLEAKS.rules.map((rule) => gitleaksRule(rule, global));
}

/**
 * The shape of the rule data scripts/secrets/convert-gitleaks.mjs writes
 * (secret-gitleaks-rules.ts): gitleaks' config with each Go regular expression converted to a
 * JavaScript one (`source` and `flags` for `new RegExp`).
 */

export interface RegexData {
  readonly source: string;
  readonly flags: string;
}

/** gitleaks' allowlist: a finding is allowed when any (OR, the default) or all (AND) checks hold. */
export interface AllowlistData {
  readonly condition?: string;
  /** What `regexes` test: the secret (default), the whole match, or the line. */
  readonly regexTarget?: 'secret' | 'match' | 'line';
  readonly paths?: readonly RegexData[];
  readonly regexes?: readonly RegexData[];
  /** Lower case; a secret containing one is allowed. */
  readonly stopwords?: readonly string[];
  /** The list named commits: never true of a packed text. */
  readonly commits?: boolean;
}

export interface RuleData {
  readonly id: string;
  /** Lower case; the rule runs only on a text containing one (none: always). */
  readonly keywords: readonly string[];
  readonly regex?: RegexData;
  /** Without `regex`: the rule reports every file whose path matches; with it, only those files are scanned. */
  readonly path?: RegexData;
  readonly secretGroup?: number;
  /** A secret must have more Shannon entropy (bits per character) than this. */
  readonly entropy?: number;
  readonly allowlists?: readonly AllowlistData[];
}

export interface GitleaksData {
  readonly upstream: { readonly repository: string; readonly version: string; readonly commit: string; readonly date: string; readonly file: string };
  /** The first line of gitleaks' LICENSE; the whole text heads the generated file. */
  readonly license: string;
  readonly allowlist: AllowlistData;
  readonly rules: readonly RuleData[];
  /** The rules that could not be converted, with the reason. */
  readonly skipped: readonly { readonly id: string; readonly reason: string }[];
}

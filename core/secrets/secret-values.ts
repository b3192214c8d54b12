/**
 * What a value assigned to a name must look like to count as a secret, for the generic rules
 * (secret-generic.ts): not a reference to one (`$VAR`, `${VAR}`, `%(name)s`, `{{ x }}`,
 * `<your token>`), not a placeholder (`changeme`, `xxx`, `***`), and random enough. A reference
 * is the whole value in one of those shapes only: `$uper#S3cret` or `(x[y;z` is a password.
 */
import { shannonEntropy } from './secret-rules.ts';

const REFERENCE = new RegExp(
  [
    String.raw`^\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)$`, // $VAR, $var (gitleaks' allowlist: one case)
    String.raw`^\$\{[^}\n]*\}$`, // ${VAR}, ${VAR:-x}
    String.raw`^\$\([^)\n]*\)$`, // $(command)
    String.raw`^%\([\w.-]+\)[sd]$`, // %(name)s
    String.raw`^%[\w.-]+%$`, // %VAR%
    String.raw`^\{\{[^}]*\}\}$`, // {{ template }}
    String.raw`^\$\{\{[^}]*\}\}$`, // $${{ secrets.X }}
    String.raw`^<[^<>\n]*>$`, // <your token>
    String.raw`^\{[\w.-]*\}$`, // {password}
    String.raw`^(?:process\.env|os\.environ|env)\b`, // a lookup, not a literal
  ].join('|'),
);

const PLACEHOLDER =
  /^(?:x+|\*+|\.+|-+|_+|#+|0+|null|nil|none|true|false|undefined|changeme|change_?me|change-me|replace_?me|todo|tbd|redacted|hidden|secret|password|passwd|pass|token|api_?key|dummy|sample|example|test|testing|admin|root|guest|user|username|foo|bar|foobar|hunter2|qwerty|letmein|(?:your|insert|enter|put)[ _-]?[a-z _-]*|.*(?:placeholder|example|changeme|xxxx|\.\.\.).*)$/i;

/** True when `value` names or stands in for a secret rather than being one. */
export function isReference(value: string): boolean {
  return REFERENCE.test(value) || PLACEHOLDER.test(value);
}

/**
 * A password's bar: 8 characters or more and at least 2.5 bits of entropy per character, so
 * `DB_PASSWORD=foobar` in a document's example is packed and a real password is not.
 */
export function passwordLike(value: string): boolean {
  return value.length >= 8 && !isReference(value) && shannonEntropy(value) >= 2.5;
}

/**
 * A token's bar (a key, a token, credentials): 12 characters or more, no space, not only
 * letters and separators (an identifier such as `access_token_expired`), 3 bits or more.
 */
export function tokenLike(value: string): boolean {
  return value.length >= 12 && !/\s/.test(value) && !/^[A-Za-z_.:/-]+$/.test(value) && !isReference(value) && shannonEntropy(value) >= 3;
}

/**
 * A random value under any name (a `.env` file's): 16 characters or more, 3.5 bits or more
 * (gitleaks' generic threshold), letters and digits both, and not a URL, path, version or
 * number.
 */
export function randomLike(value: string): boolean {
  if (value.length < 16 || /\s/.test(value) || isReference(value)) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i.test(value) || /^[./~]/.test(value) || /^[\d.,:_-]+$/.test(value)) return false;
  return /[A-Za-z]/.test(value) && /\d/.test(value) && shannonEntropy(value) >= 3.5;
}

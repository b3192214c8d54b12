/**
 * Our generic rules, for what gitleaks' token formats cannot know: a value assigned to a
 * secret-sounding name in JSON (`"password": "..."`), YAML, TOML, INI, `.properties`, `.env`
 * (there, a random value under any name too) and code; `.netrc`; connection strings
 * (`Password=`); credentials in a URL; kubeconfig's `client-key-data`; `.npmrc` auth. A name
 * is judged by its last word (`DB_PASS`, `dbPassword`, `client-secret`, `STRIPE_API_KEY`), a
 * value by secret-values.ts; an unquoted value runs to the end of its line (`#`, `;`, `,`,
 * `(`, `[` and a leading `$` are password characters; ` #` starts a comment), a quoted one to
 * its closing quote (spaces and all). In source code only quoted literals count, at a higher bar.
 */
import { passwordLike, randomLike, isReference, tokenLike } from './secret-values.ts';
import type { ScanText, SecretRule } from './secret-rules.ts';

const PASSWORD_WORDS = new Set(['password', 'passwd', 'pass', 'pwd', 'passphrase', 'passcode', 'secret', 'privatekey', 'clientsecret']);
const TOKEN_WORDS = new Set(['token', 'tokens', 'apikey', 'secretkey', 'accesskey', 'authkey', 'credential', 'credentials', 'creds', 'auth', 'authtoken', 'accesstoken', 'refreshtoken', 'bearertoken', 'sessiontoken', 'apitoken', 'apisecret']);
const KEY_QUALIFIERS = new Set(['api', 'access', 'secret', 'private', 'auth', 'encryption', 'signing', 'master', 'client', 'app', 'service', 'license', 'account', 'storage', 'shared', 'session', 'jwt', 'hmac', 'webhook', 'subscription', 'admin', 'write', 'read', 'deploy']);

/** 'password' or 'token' when a name's last word (or last two) is a secret's, else undefined. */
export function secretName(name: string): 'password' | 'token' | undefined {
  const last = name.split(/[./:[\]]/).filter(Boolean).pop() ?? '';
  const words = last.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[_-]+/).filter(Boolean);
  const one = words.at(-1) ?? '';
  const two = words.slice(-2).join('');
  if (PASSWORD_WORDS.has(one) || PASSWORD_WORDS.has(two)) return 'password';
  if (TOKEN_WORDS.has(one) || TOKEN_WORDS.has(two)) return 'token';
  if (one === 'key' && KEY_QUALIFIERS.has(words.at(-2) ?? '')) return 'token';
  return undefined;
}

const CODE_EXT = /\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kt|kts|scala|swift|c|h|cc|cpp|hpp|cs|php|vue|svelte|astro|dart|lua|pl|ex|exs|erl|hs|clj|groovy|m|mm)$/i;
/** `.env`, `.env.local`, `prod.env`: every random value there is taken for a secret. */
const isDotenv = (path: string) => /(?:^|\/)\.env(?:\.[^/]*)?$|\.env$/i.test(path);
/** Source code, by extension (a `.env.*` file never is): the generic rules do not run there. */
export const isCode = (path: string) => CODE_EXT.test(path) && !isDotenv(path);

/** Where a secret word may be named: each line holding one is parsed, the rest are not. */
const CANDIDATE = /pass|pwd|secret|token|key|auth|cred/gi;
const ASSIGNMENT_KEYWORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred'];

/** `name = "value"`, `"name": 'value'`, `name := \`value\``, any number on a line. */
const QUOTED = /(?:^|[^\w$.-])(["'`]?)([A-Za-z_$][\w$.-]*)\1[ \t]*(?::=|=>|\?=|=|:)[ \t]*(?:[rbuf]|@)?(["'`])((?:(?!\3)[^\\\n]|\\.)*)\3/g;
/** `NAME=value`, `name: value` alone on a (diff) line, the value unquoted, up to a ` #` comment. */
const UNQUOTED = /^[ \t]*[+-]?[ \t]*(?:export[ \t]+)?(["']?)([A-Za-z_$][\w$.-]*)\1[ \t]*[=:][ \t]*(?!["'`])(\S.*?)(?:[ \t]+#.*)?[ \t]*\r?$/;

/** Each line of `content` holding a candidate word, once. */
function* candidateLines(content: string): Generator<string> {
  CANDIDATE.lastIndex = 0;
  let end = -1;
  for (let hit = CANDIDATE.exec(content); hit; hit = CANDIDATE.exec(content)) {
    if (hit.index < end) continue;
    const start = content.lastIndexOf('\n', hit.index) + 1;
    const next = content.indexOf('\n', hit.index);
    end = next < 0 ? content.length : next;
    CANDIDATE.lastIndex = end;
    yield content.slice(start, end);
  }
}

/** Each (name, value) a line assigns: quoted ones, else the line's one unquoted one. */
function* assignments(line: string, unquoted: boolean): Generator<[name: string, value: string]> {
  let any = false;
  QUOTED.lastIndex = 0;
  for (let m = QUOTED.exec(line); m; m = QUOTED.exec(line)) {
    any = true;
    yield [m[2]!, m[4]!];
  }
  if (any || !unquoted) return;
  const m = UNQUOTED.exec(line);
  if (m) yield [m[2]!, m[3]!.replace(/,$/, '')];
}

/** A value under a secret name in configuration (and a random one under any name in `.env`). */
const genericAssignment: SecretRule = {
  id: 'supervisor/generic-assignment',
  keywords: ASSIGNMENT_KEYWORDS,
  confidence: 'generic',
  found(text) {
    for (const line of candidateLines(text.content)) {
      for (const [name, value] of assignments(line, true)) {
        const kind = secretName(name);
        if (kind === 'password' ? passwordLike(value) : kind === 'token' && tokenLike(value)) return true;
      }
    }
    return false;
  },
};

/** `.env` files: a random value under any name, not only a secret-sounding one. */
const dotenvValue: SecretRule = {
  id: 'supervisor/dotenv-value',
  keywords: [],
  confidence: 'generic',
  found(text) {
    if (!isDotenv(text.path)) return false;
    for (const line of text.content.split('\n')) for (const [, value] of assignments(line, true)) if (randomLike(value)) return true;
    return false;
  },
};

/**
 * In source code: a quoted literal assigned to a secret name, with no space and, for a
 * password, a digit or symbol (not `'OUTSIDE-SECRET-TEXT'`, a test's marker).
 */
const codeAssignment: SecretRule = {
  id: 'supervisor/code-assignment',
  keywords: ASSIGNMENT_KEYWORDS,
  confidence: 'format',
  found(text: ScanText) {
    if (!text.code) return false;
    for (const line of candidateLines(text.content)) {
      for (const [name, value] of assignments(line, false)) {
        if (/\s|\$\{|\{\{|%[sd]/.test(value)) continue;
        const kind = secretName(name);
        if (kind === 'password' ? passwordLike(value) && /[^A-Za-z_./: -]/.test(value) : kind === 'token' && tokenLike(value)) return true;
      }
    }
    return false;
  },
};

/** A rule of one regular expression whose group 1 is the secret, judged by `ok`. */
function valueRule(id: string, keywords: string[], pattern: RegExp, ok: (value: string, text: ScanText) => boolean, confidence: SecretRule['confidence'] = 'format'): SecretRule {
  return {
    id: `supervisor/${id}`,
    keywords,
    confidence,
    found(text) {
      pattern.lastIndex = 0;
      for (let m = pattern.exec(text.content); m; m = pattern.exec(text.content)) if (ok(m.slice(1).find((g) => g !== undefined) ?? '', text)) return true;
      return false;
    },
  };
}

const notReference = (value: string) => value.length >= 4 && !isReference(value);
const isNetrc = (path: string) => /(?:^|\/)[._]?netrc$/i.test(path);

export const GENERIC_RULES: readonly SecretRule[] = [
  genericAssignment,
  dotenvValue,
  codeAssignment,
  // .netrc: `password <value>` (in a .netrc file), or a whole `machine ... password ...` line anywhere.
  valueRule('netrc-password', ['password', 'machine'], /(?:^|\s)password[ \t]+(\S+)/g, (v, t) => isNetrc(t.path) && v.length > 0 && !isReference(v)),
  valueRule('netrc-machine', ['machine'], /\bmachine[ \t]+\S+[ \t]+login[ \t]+\S+[ \t]+password[ \t]+(\S+)/g, notReference),
  // ADO.NET / ODBC / JDBC connection strings: `Password=` or `Pwd=` beside another of their keys.
  valueRule('connection-string-password', ['password', 'pwd'], /(?:server|data source|host|user id|uid|user|database|initial catalog|dsn)[ \t]*=[^;\n]*;(?:[^;\n]*;)*?[ \t]*(?:password|pwd)[ \t]*=[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^;"'\n]*))/gi, (v) => notReference(v.trim())),
  valueRule('connection-string-password', ['password', 'pwd'], /(?:^|[;"'\s])(?:password|pwd)[ \t]*=[ \t]*([^;"'\n]+);[^\n]*?(?:server|data source|host|user id|uid|database|initial catalog)[ \t]*=/gi, (v) => notReference(v.trim())),
  // Credentials in a URL: scheme://user:password@host.
  valueRule('url-credentials', ['://'], /:\/\/[^\s:@/?#'"`<>]{1,256}:([^\s@/?#'"`<>]{1,256})@[\w.[\]-]/g, notReference),
  // kubeconfig: a client key inline, base64 of a PEM private key.
  valueRule('kubeconfig-client-key-data', ['client-key-data'], /client-key-data["']?[ \t]*:[ \t]*["']?([A-Za-z0-9+/=]{20,})/g, () => true),
  // .npmrc: `_authToken=`, `_auth=`, `_password=` (its own key names, not a variable's).
  valueRule('npmrc-auth', ['_auth', '_password'], /(?:^|[:\s])_(?:authToken|auth|password)[ \t]*=[ \t]*["']?([^\s"'`\\]+)/g, notReference),
];

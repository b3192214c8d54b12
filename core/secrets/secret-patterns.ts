/**
 * The formats secretlint's recommended preset does not find, checked beside it: no secretlint
 * rule on npm covers them (the further ones are `no-dotenv`, by file name only, `no-homedir`,
 * `no-k8s-kind-secret`, `secp256k1-privatekey` and `pattern`, a shell for regexes like these),
 * so the patterns follow gitleaks' rule set (its ids, its token shapes), written here as
 * JavaScript regular expressions. Each leads with a literal (a prefix, a key word, a line's
 * "\n") so the engine skips to where it can match: packing scans every file, and must stay
 * fast. The ids are what a notice names (`supervisor/<id>`).
 */

export interface SecretPattern {
  /** What a notice names: `supervisor/<gitleaks' id, or ours>`. */
  readonly id: string;
  /** True when `content` holds this kind of secret; `ext` is the text's file extension (".py", or ""). */
  test(content: string, ext: string): boolean;
}

const regex = (id: string, pattern: RegExp): SecretPattern => ({ id: `supervisor/${id}`, test: (content) => pattern.test(content) });

/**
 * A pattern that must start a line, as two regular expressions: one led by "\n" (a literal first
 * character lets the engine skip to each line instead of trying every position, as `^` with the
 * `m` flag does) and one for the text's first line. `source` ends at its own line's end.
 */
interface LineStart {
  afterNewline: RegExp;
  atStart: RegExp;
}
function lineStart(source: string, flags = ''): LineStart {
  return { afterNewline: new RegExp(`\\n${source}`, `${flags}g`), atStart: new RegExp(`^${source}`, flags) };
}

/** Each match of `pattern` in `content`, first line first; the groups as the regular expression has them. */
function* lineMatches(pattern: LineStart, content: string): Generator<RegExpExecArray> {
  const first = pattern.atStart.exec(content);
  if (first) yield first;
  const re = pattern.afterNewline;
  re.lastIndex = 0;
  for (let match = re.exec(content); match; match = re.exec(content)) yield match;
}

/**
 * A private key's PEM block of any type (EC, Ed25519 and other PKCS#8, ENCRYPTED PKCS#8, SEC1,
 * OpenSSH, PGP): the preset's rule knows five type names and wants a body of 100 characters, so
 * an Ed25519 key (one line of 64) and an encrypted one pass it. A body is required, so code that
 * only names the header (a PEM parser) stays packed.
 */
const PEM_PRIVATE_KEY = /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[ \t]*\r?\n(?:[ \t]*[A-Za-z0-9_-]+:[^\n]*\r?\n)*\s*[A-Za-z0-9+/=]{40,}/;

/**
 * Key material without its BEGIN line, in a diff: three successive lines of base64 at a PEM (64)
 * or OpenSSH (70) width after their +/-/space column, as a hunk from the middle of a committed
 * key shows them. Looked for only in a text with a hunk header ("@@ "): the git-diff packer
 * scans each file's diff as it is (see plugins/packers/_diff-files.ts), and elsewhere the BEGIN
 * line is there for the rules above. Public certificates in this shape are held back too: a cost
 * worth paying against a key body.
 */
const BODY_LINE = '[ +-]?(?:[A-Za-z0-9+/]{64}|[A-Za-z0-9+/]{70})\\r?\\n';
const KEY_BODY_LINES = lineStart(`${BODY_LINE}${BODY_LINE}[ +-]?[A-Za-z0-9+/=]{8,70}\\r?(?:\\n|$)`);
const keyBody: SecretPattern = {
  id: 'supervisor/private-key-body',
  test: (content) => (content.startsWith('@@ ') || content.includes('\n@@ ')) && !lineMatches(KEY_BODY_LINES, content).next().done,
};

/** Docker's config.json: `"auths"` with an `"auth"` (base64 user:password) or an identity token. */
const DOCKER_AUTHS = /"auths"\s*:\s*\{[\s\S]*?"(?:auth|identitytoken)"\s*:\s*"[A-Za-z0-9+/=_.-]{8,}"/;

/**
 * A `NAME=value` or `NAME: value` line whose name ends in a secret's word (PASSWORD, SECRET,
 * TOKEN, API_KEY, ...), in any file: `.env` files by other names (`config.local`,
 * `settings.ini`, a Java `.properties`, YAML). Line-start assignments only, the value alone on
 * its line (a trailing `,` or `;` is code), so `password: readPassword,` in code does not
 * match; the value is a literal of at least 6 characters, not a reference (`$VAR`, `${...}`,
 * `%(x)s`, `<...>`), a call or a placeholder. Not in source code (see CODE_EXT): there a value
 * is mostly a variable (`self.password = password`), a literal token is found by its format,
 * and the generic check would cost a pass over most of what is packed.
 */
const ENV_ASSIGNMENT = lineStart(
  String.raw`[ \t]*(?:export[ \t]+)?[A-Za-z0-9_.-]*?(?:PASSWORD|PASSWD|PASSPHRASE|_PWD|SECRET|SECRET_?KEY|TOKEN|API_?KEY|ACCESS_?KEY|AUTH_?KEY|PRIVATE_?KEY|CLIENT_?SECRET|CREDENTIALS?)[ \t]*[=:][ \t]*(["']?)([^\s"'#;,(){}[\]]{6,})\1[ \t]*(?:[ \t]#[^\n]*)?\r?(?=\n|$)`,
  'i',
);
const NOT_A_VALUE = /^(?:\$|%\(|<|process\.|os\.|env\.|getenv|your|example|placeholder|xxx|\*\*\*|\.\.\.|(?:none|null|nil|true|false|undefined|changeme|change_me|secret|password|passwd|token|api_?key|dummy|sample|testing|admin|redacted|hidden|\d+)$)/i;
const CODE_EXT = /^\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kt|kts|scala|swift|c|h|cc|cpp|hpp|cs|php|vue|svelte|dart|lua|pl|ex|exs|erl|hs|clj|groovy|m|mm)$/;

/** Shannon entropy in bits per character. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

/**
 * A value that reads like a credential rather than a word in an example: 8 characters or more
 * and at least 2.5 bits of entropy per character (gitleaks' generic rule sets a floor the same
 * way), so `DB_PASSWORD=foobar` in a document's example is packed and a real password is not.
 */
const credentialLike = (value: string) => value.length >= 8 && entropy(value) >= 2.5;

const envAssignment: SecretPattern = {
  id: 'supervisor/env-assignment',
  test(content, ext) {
    if (CODE_EXT.test(ext)) return false;
    for (const match of lineMatches(ENV_ASSIGNMENT, content)) if (!NOT_A_VALUE.test(match[2]!) && credentialLike(match[2]!)) return true;
    return false;
  },
};

/** In the order a notice lists them. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  regex('private-key', PEM_PRIVATE_KEY),
  keyBody,
  // Azure storage (and Service Bus / Event Hubs) connection strings: a 64-byte key in base64.
  regex('azure-storage-key', /(?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*[A-Za-z0-9+/]{40,}={0,2}/),
  // SendGrid: SG.<22>.<43>, either part may hold "-" and "_" (the preset's rule allows only \w).
  regex('sendgrid-api-token', /SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/),
  regex('gcp-api-key', /AIza[A-Za-z0-9_-]{35}/),
  // PyPI upload tokens are macaroons whose base64 always starts with the "pypi.org" location.
  regex('pypi-upload-token', /pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/),
  regex('jwt', /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/),
  regex('discord-webhook', /discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{20,}/),
  regex('docker-auths', DOCKER_AUTHS),
  regex('twilio-api-key', /SK[0-9a-fA-F]{32}(?![0-9A-Za-z])/),
  envAssignment,
];

/** The ids of the patterns that find a secret in `content`, a text with the file extension `ext`. */
export function matchSecretPatterns(content: string, ext: string): string[] {
  return SECRET_PATTERNS.filter((pattern) => pattern.test(content, ext)).map((pattern) => pattern.id);
}

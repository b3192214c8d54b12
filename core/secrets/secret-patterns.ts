/**
 * Formats of our own beside gitleaks' rules (secret-rules.ts), for what those miss: a private
 * key's PEM block cut short or without its END line (gitleaks' rule wants both), key bodies in
 * a diff hunk, Azure storage keys in connection strings, Docker's config.json auths, Discord
 * webhooks, OpenAI project keys of any shape, and the token formats secretlint's recommended
 * preset knows and gitleaks does not (Docker, Figma, Groq, Tailscale, Vercel, Cloudflare's new
 * tokens), so dropping secretlint lost none of its coverage. Each leads
 * with a literal (a prefix, a key word, a line's "\n") so the engine skips to where it can
 * match, and names the keywords the pre-filter looks for. The ids are what a notice names
 * (`supervisor/<id>`).
 */
import type { SecretRule } from './secret-rules.ts';

const regex = (id: string, keywords: string[], pattern: RegExp): SecretRule => ({
  id: `supervisor/${id}`,
  keywords,
  confidence: 'format',
  found: (text) => pattern.test(text.content),
});

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

/** Whether `pattern` matches at the start of some line of `content`. */
function matchesALine(pattern: LineStart, content: string): boolean {
  if (pattern.atStart.test(content)) return true;
  pattern.afterNewline.lastIndex = 0;
  return pattern.afterNewline.test(content);
}

/**
 * A private key's PEM block of any type (EC, Ed25519 and other PKCS#8, ENCRYPTED PKCS#8, SEC1,
 * OpenSSH, PGP), with 40 characters of body and no END line needed. A body is required, so code
 * that only names the header (a PEM parser) stays packed.
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
const keyBody: SecretRule = {
  id: 'supervisor/private-key-body',
  keywords: ['@@ '],
  confidence: 'format',
  found: (text) => (text.content.startsWith('@@ ') || text.content.includes('\n@@ ')) && matchesALine(KEY_BODY_LINES, text.content),
};

/** Docker's config.json: `"auths"` with an `"auth"` (base64 user:password) or an identity token. */
const DOCKER_AUTHS = /"auths"\s*:\s*\{[\s\S]*?"(?:auth|identitytoken)"\s*:\s*"[A-Za-z0-9+/=_.-]{8,}"/;

/** In the order a notice lists them. */
export const SECRET_PATTERNS: readonly SecretRule[] = [
  regex('private-key', ['private key'], PEM_PRIVATE_KEY),
  keyBody,
  // Azure storage (and Service Bus / Event Hubs) connection strings: a 64-byte key in base64.
  regex('azure-storage-key', ['accountkey', 'sharedaccesskey'], /(?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*[A-Za-z0-9+/]{40,}={0,2}/),
  regex('docker-auths', ['"auths"'], DOCKER_AUTHS),
  regex('discord-webhook', ['discord'], /discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{20,}/),
  // OpenAI's project, service-account and admin keys, also those without gitleaks' "T3BlbkFJ" marker.
  regex('openai-api-key', ['sk-proj-', 'sk-svcacct-', 'sk-admin-'], /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}/),
  // Token formats of secretlint's recommended preset (MIT) that gitleaks' rules lack.
  regex('docker-pat', ['dckr_pat_'], /dckr_pat_[a-zA-Z0-9_-]{27}(?![a-zA-Z0-9_-])/),
  regex('figma-pat', ['figd_'], /figd_[A-Za-z0-9_-]{40,200}(?![A-Za-z0-9_-])/),
  regex('groq-api-key', ['gsk_'], /gsk_[a-zA-Z0-9]{52}(?![a-zA-Z0-9])/),
  regex('tailscale-key', ['tskey-'], /(?<![A-Za-z])tskey-[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}(?![0-9A-Za-z_])/),
  regex('vercel-token', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], /(?<![A-Za-z])vc[piark]_[A-Za-z0-9]{20,60}(?![A-Za-z0-9])/),
  regex('cloudflare-token', ['cfk_', 'cfut_', 'cfat_'], /(?<![A-Za-z])(?:cfk|cfut|cfat)_[A-Za-z0-9]{40}[0-9a-f]{8}(?![A-Za-z0-9])/),
];

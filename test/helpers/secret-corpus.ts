/**
 * A corpus of secrets in every format issue 18 names, made fresh for each test: keys from
 * node:crypto, tokens of random bytes in each service's shape. Nothing here is a real
 * credential, and no literal token sits in this file (prefixes are joined at run time), so no
 * scanner flags the source.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';

export interface SecretFile {
  /** Where the file goes in the repository. */
  path: string;
  content: string;
  /** Text of the secret that must never appear in a prompt. */
  secrets: string[];
  /** The id of a rule that finds it (`gitleaks/x` or `supervisor/x`). */
  rule: string;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = (alphabet: string, n: number) => Array.from(randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const join = (...parts: string[]) => parts.join('');

/** A PEM's body lines long enough to identify it. */
export function pemBodyLines(pem: string): string[] {
  return pem.split('\n').filter((line) => line.length >= 24 && !line.startsWith('-----'));
}

function keys() {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const ed = generateKeyPairSync('ed25519').privateKey;
  return {
    ecSec1: ec.export({ type: 'sec1', format: 'pem' }) as string,
    ecPkcs8: ec.export({ type: 'pkcs8', format: 'pem' }) as string,
    ed25519: ed.export({ type: 'pkcs8', format: 'pem' }) as string,
    encrypted: ec.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'corpus' }) as string,
  };
}

/** Every format of issues 18 and 27 (S01), one file each. */
export function secretCorpus(): SecretFile[] {
  const k = keys();
  const pem = (path: string, text: string): SecretFile => ({ path, content: text, secrets: pemBodyLines(text), rule: 'supervisor/private-key' });
  const azureKey = randomBytes(64).toString('base64');
  const sendgrid = join('SG', '.', pick(ALNUM, 8), '-', pick(ALNUM, 6), '_', pick(ALNUM, 6), '.', pick(ALNUM, 20), '_-', pick(ALNUM, 21));
  const google = join('AI', 'za', 'Sy', pick(ALNUM + '-_', 33));
  const pypi = join('pypi-', 'AgEIcHlwaS5vcmc', randomBytes(60).toString('base64url'));
  const jwt = [b64url('{"alg":"HS256","typ":"JWT"}'), b64url(`{"sub":"${pick(ALNUM, 12)}","name":"corpus"}`), randomBytes(32).toString('base64url')].join('.');
  const discord = join('https://discord.com/api/', 'webhooks/', String(100000000000000000n + BigInt(randomBytes(4).readUInt32BE())), '/', pick(ALNUM + '_-', 68));
  const dockerAuth = Buffer.from(`corpus:${pick(ALNUM, 20)}`).toString('base64');
  const twilio = join('S', 'K', randomBytes(16).toString('hex'));
  const dbPassword = pick(ALNUM, 18);
  const apiKey = randomBytes(20).toString('hex');
  return [
    pem('keys/ec.pem', k.ecSec1),
    pem('keys/ec-pkcs8.pem', k.ecPkcs8),
    pem('keys/ed25519.pem', k.ed25519),
    pem('deploy/signing.key', k.encrypted),
    { path: 'config/storage.txt', content: `DefaultEndpointsProtocol=https;AccountName=corpusstore;AccountKey=${azureKey};EndpointSuffix=core.windows.net\n`, secrets: [azureKey], rule: 'supervisor/azure-storage-key' },
    { path: 'src/mail.ts', content: `export const mailer = { key: "${sendgrid}" };\n`, secrets: [sendgrid], rule: 'gitleaks/sendgrid-api-token' },
    { path: 'web/maps.js', content: `const maps = loadMaps({ key: '${google}' });\n`, secrets: [google], rule: 'gitleaks/gcp-api-key' },
    { path: 'release/upload.txt', content: `upload with ${pypi}\n`, secrets: [pypi], rule: 'gitleaks/pypi-upload-token' },
    { path: 'fixtures/session.txt', content: `session ${jwt}\n`, secrets: [jwt], rule: 'gitleaks/jwt' },
    { path: 'ops/hooks.yaml', content: `notify:\n  url: ${discord}\n`, secrets: [discord], rule: 'supervisor/discord-webhook' },
    { path: 'docker/config.json', content: JSON.stringify({ auths: { 'registry.example.com': { auth: dockerAuth } } }, null, 2), secrets: [dockerAuth], rule: 'supervisor/docker-auths' },
    { path: 'sms/client.rb', content: `client = Sms.new("${twilio}")\n`, secrets: [twilio], rule: 'gitleaks/twilio-api-key' },
    { path: 'config.local', content: `DB_HOST=db.internal\nDB_PASSWORD=${dbPassword}\n`, secrets: [dbPassword], rule: 'supervisor/generic-assignment' },
    { path: 'settings.ini', content: `[service]\nname = corpus\nAPI_KEY = ${apiKey}\n`, secrets: [apiKey], rule: 'supervisor/generic-assignment' },
    ...s01Corpus(),
  ];
}

/**
 * The formats of issue 27's S01, each of which reached a prompt: JSON `"password"`, `.netrc`,
 * a connection string's `Password=`, kubeconfig's `client-key-data`, OpenAI `sk-proj-`, Hugging
 * Face `hf_`, DigitalOcean `dop_v1_`, secrets in code, and `.env` values whose password
 * characters (`#;,([`, quoted spaces, a leading `$`), name (`DB_PASS`) or lack of one got
 * them past the old entropy rule.
 */
export function s01Corpus(): SecretFile[] {
  const password = (special = '') => join(pick(ALNUM, 5), special, pick(ALNUM, 6), '9');
  const file = (path: string, content: (secret: string) => string, secret: string, rule: string): SecretFile => ({ path, content: content(secret), secrets: [secret], rule });
  // Random tails end on a letter or digit: gitleaks' rule ends at a word boundary, which a final '-' never is (the corpus failed about one run in thirty).
  const openai = join('sk-', 'proj-', pick(ALNUM + '_-', 74), 'T3Bl', 'bkFJ', pick(ALNUM + '_-', 73), pick(ALNUM, 1));
  const openaiNew = join('sk-', 'proj-', pick(ALNUM + '_-', 119), pick(ALNUM, 1));
  const env = (path: string, line: (s: string) => string, secret: string, rule = 'supervisor/generic-assignment') => file(path, (s) => `APP_NAME=corpus
${line(s)}
`, secret, rule);
  return [
    file('config/db.json', (s) => JSON.stringify({ host: 'db.internal', port: 5432, password: s }, null, 2), password('#'), 'supervisor/generic-assignment'),
    file('.netrc', (s) => `machine api.example.com
  login alice
  password ${s}
`, password(), 'supervisor/netrc-password'),
    file('config/appsettings.json', (s) => JSON.stringify({ ConnectionStrings: { Default: `Server=db.internal;Database=app;User Id=sa;Password=${s};` } }, null, 2), password('!'), 'supervisor/connection-string-password'),
    file('deploy/kubeconfig', (s) => `apiVersion: v1
kind: Config
users:
- name: admin
  user:
    client-certificate-data: LS0tLS1CRUdJTiBDRVJU
    client-key-data: ${s}
`, randomBytes(90).toString('base64'), 'supervisor/kubeconfig-client-key-data'),
    file('notes/openai.txt', (s) => `the key: ${s}
`, openai, 'gitleaks/openai-api-key'),
    file('notes/openai-new.txt', (s) => `OPENAI_KEY ${s}
`, openaiNew, 'supervisor/openai-api-key'),
    file('notes/hf.txt', (s) => `token ${s}
`, join('hf', '_', pick('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 34)), 'gitleaks/huggingface-access-token'),
    file('notes/do.txt', (s) => `export DO=${s}
`, join('dop', '_v1_', randomBytes(32).toString('hex')), 'gitleaks/digitalocean-pat'),
    file('src/settings.py', (s) => `DEBUG = False
DB_PASSWORD = "${s}"
`, password('$'), 'supervisor/code-assignment'),
    file('src/client.ts', (s) => `export const client = new Api({ apiKey: '${s}' });
`, randomBytes(20).toString('hex'), 'supervisor/code-assignment'),
    env('env/hash.env', (s) => `DB_PASSWORD=${s}`, password('#')),
    env('env/semicolon.env', (s) => `DB_PASSWORD=${s}`, password(';')),
    env('env/comma.env', (s) => `DB_PASSWORD=${s}`, password(',')),
    env('env/paren.env', (s) => `DB_PASSWORD=${s}`, password('(')),
    env('env/bracket.env', (s) => `DB_PASSWORD=${s}`, password('[')),
    env('env/spaces.env', (s) => `DB_PASSWORD="${s}"`, password(' ')),
    env('env/dollar.env', (s) => `DB_PASSWORD=${s}`, join('$', 'Qa', password())),
    env('env/db-pass.env', (s) => `DB_PASS=${s}`, password()),
    env('env/unnamed.env', (s) => `UPSTREAM_ID=${s}`, join(pick(ALNUM, 12), '7', pick(ALNUM, 12)), 'supervisor/dotenv-value'),
    env('config/settings.properties', (s) => `db.pass = ${s}`, password(',')),
  ];
}

/** A 2048-bit RSA key in PEM (PKCS#1): 25 body lines, so a change in its middle makes a hunk without the BEGIN line. */
export function rsaKeyPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
}

/** `pem` with its middle body line replaced by fresh base64 of the same width. */
export function changeMiddleLine(pem: string): string {
  const lines = pem.split('\n');
  const middle = Math.floor(lines.length / 2);
  lines[middle] = randomBytes(48).toString('base64');
  return lines.join('\n');
}

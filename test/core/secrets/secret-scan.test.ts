/** The secret scan: gitleaks' rules and ours find the secrets issues 13, 18 and 27 name, and nothing in ordinary code. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allSecretRules, createSecretScanner, NO_SECRET_SCAN, secretEngine, secretNotice } from '../../../core/secrets/secret-scan.ts';
import { changeMiddleLine, rsaKeyPem, secretCorpus } from '../../helpers/secret-corpus.ts';

// Assembled at run time, so no secret scanner ever sees one in this file.
const gh = ['ghp', 'Zq8xW2mK4nR7tY1uI3oP5aS6dF9gH0jL2kX4'].join('_');
const npm = ['npm', 'Qw3rTy7uIo9pAs1dFg5hJk2lZx8cVb4nM6q0'].join('_');
const key = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi3Vt6Zj2R8vZ9xk5bYZ0R8vZ9x', 'k5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bY', '-----END RSA PRIVATE KEY-----', ''].join('\n');

describe('secret scan', () => {
  const scanner = createSecretScanner();
  const cases: [string, string, string][] = [
    ['id_rsa', key, 'gitleaks/private-key'],
    ['server.pem', key.replaceAll('RSA ', ''), 'gitleaks/private-key'],
    ['.npmrc', `//registry.npmjs.org/:_authToken=${npm}\n`, 'gitleaks/npm-access-token'],
    ['.npmrc', `//registry.example.com/:_authToken=${gh.slice(4)}\n`, 'supervisor/npmrc-auth'],
    ['.git-credentials', `https://alice:${gh}@github.com\n`, 'supervisor/url-credentials'],
    ['prod.env', 'DATABASE_URL=postgres://admin:Pr0dDbPassw0rd@db.example.com:5432/prod\n', 'supervisor/url-credentials'],
    ['ci.sh', `export GITHUB_TOKEN=${gh}\n`, 'gitleaks/github-pat'],
    ['keys/sa.json', JSON.stringify({ type: 'service_account', project_id: 'p', private_key_id: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0', private_key: key, client_email: 'x@p.iam.gserviceaccount.com' }), 'gitleaks/private-key'],
    ['keys/sa.json', JSON.stringify({ type: 'service_account', private_key_id: 'k1', private_key: '-----BEGIN PRIVATE KEY-----\nshort\n-----END PRIVATE KEY-----\n' }), 'supervisor/generic-assignment'],
    ['.git/config', '[remote "origin"]\n\turl = https://alice:RemoteS3cretPw@github.com/acme/app.git\n', 'supervisor/url-credentials'],
  ];
  for (const [path, content, rule] of cases) {
    it(`finds the secret in ${path} (${rule})`, async () => {
      assert.ok((await scanner.scan(path, content)).includes(rule));
    });
  }

  for (const file of secretCorpus()) {
    it(`finds the secret in ${file.path} (${file.rule})`, async () => {
      assert.ok((await scanner.scan(file.path, file.content)).includes(file.rule), file.content);
    });
  }

  it("finds the token formats secretlint's preset knew and gitleaks' rules lack", async () => {
    const random = (n: number) => Array.from({ length: n }, (_, i) => 'aB3dE5gH7jK9mN1pQ2sT4vW6yZ8cF0'[(i * 7 + 3) % 30]).join('');
    const tokens: [string, string][] = [
      [['dckr', '_pat_', random(27)].join(''), 'supervisor/docker-pat'],
      [['fi', 'gd_', random(44)].join(''), 'supervisor/figma-pat'],
      [['g', 'sk_', random(52)].join(''), 'supervisor/groq-api-key'],
      [['ts', 'key-api-', random(12), '-', random(30)].join(''), 'supervisor/tailscale-key'],
      [['v', 'cp_', random(30)].join(''), 'supervisor/vercel-token'],
      [['cf', 'ut_', random(40), 'deadbeef'].join(''), 'supervisor/cloudflare-token'],
    ];
    for (const [token, rule] of tokens) assert.deepEqual(await scanner.scan('src/client.ts', `const client = connect("${token}");\n`), [rule]);
  });

  it("finds a key's body lines without their BEGIN line, as a diff hunk from the middle of a committed key shows them", async () => {
    const pem = rsaKeyPem();
    const lines = pem.split('\n');
    const hunk = ['@@ -11,7 +11,7 @@', ...lines.slice(10, 17).map((l) => ` ${l}`)].join('\n'); // no BEGIN, no END
    assert.ok((await scanner.scan('keys/legacy_rsa', hunk)).includes('supervisor/private-key-body'));
    // The diff as the git-diff packer scans it, column and all.
    const diff = `diff --git a/k b/k\nindex 1..2 100644\n--- a/k\n+++ b/k\n${hunk}\n`;
    assert.ok((await scanner.scan('keys/legacy_rsa', diff)).includes('supervisor/private-key-body'));
    const diffLines = changeMiddleLine(pem).split('\n').slice(10, 17).map((l, i) => (i === 3 ? `+${l}` : ` ${l}`));
    assert.ok((await scanner.scan('keys/legacy_rsa', ['@@ -11,7 +11,7 @@', ...diffLines].join('\n'))).includes('supervisor/private-key-body'));
  });

  it('finds key-looking assignments in .env-style files whatever their name, and not in code that only names a secret', async () => {
    const env = ['config.local', 'settings.ini', 'app.properties', 'deploy/vars', 'values.yaml'];
    for (const path of env) {
      assert.ok((await scanner.scan(path, 'HOST=db\nDB_PASSWORD=Zx81kQ0pLm\n')).includes('supervisor/generic-assignment'), path);
      assert.ok((await scanner.scan(path, 'export SERVICE_API_KEY="9f3a7c1e0b2d4f6a"\n')).includes('supervisor/generic-assignment'), path);
      assert.ok((await scanner.scan(path, 'db.password: hunter2000\n')).includes('supervisor/generic-assignment'), path);
      // A document's example value is not a credential: too short, or too plain.
      assert.deepEqual(await scanner.scan(path, 'VITE_SOME_KEY=123\nDB_PASSWORD=foobar\n'), [], path);
      assert.deepEqual(await scanner.scan(path, 'API_KEY=aaaaaaaaaaaa\n'), [], path);
    }
    const code: [string, string][] = [
      ['a.ts', 'const password = readPassword();\nconst opts = {\n  password: readPassword,\n  token: opts.token,\n};\n'],
      ['a.py', 'self.password = password\nself._default_token = default_token\nPASSWORD_FIELD = "password"\nDB_PASSWORD = db_password_from_vault\n'],
      ['a.js', 'exports.createScalarToken = cstScalar.createScalarToken;\n'],
      ['.env.example', 'DB_PASSWORD=\nAPI_KEY=${API_KEY}\nTOKEN=<your token>\nSECRET=changeme\nMAX_TOKENS=4096\n'],
      ['README.md', 'Set `API_KEY=your-api-key` and `DB_PASSWORD=$DB_PASSWORD`.\n\nAPI_KEY=your-api-key\n'],
      ['settings.ini', 'password = %(db_password)s\nsecret = ${SECRET}\n'],
      ['cert-parser.ts', "const HEADER = '-----BEGIN PRIVATE KEY-----';\n"],
    ];
    for (const [path, content] of code) assert.deepEqual(await scanner.scan(path, content), [], `${path}: ${content}`);
  });

  it('finds nothing in ordinary code, in blank text, or with the scan turned off', async () => {
    assert.deepEqual(await scanner.scan('a.ts', 'export const token = process.env.GITHUB_TOKEN;\nconst url = "https://github.com/acme/app";\n'), []);
    assert.deepEqual(await scanner.scan('blank.txt', ' \n\t\n'), []);
    assert.deepEqual(await NO_SECRET_SCAN.scan('ci.sh', `GITHUB_TOKEN=${gh}\n`), []);
  });

  it('names the file and the rules in its notice, and how to opt out', () => {
    const notice = secretNotice('glob', '.npmrc', ['gitleaks/npm-access-token', 'supervisor/npmrc-auth']);
    assert.match(notice, /^glob: left out \.npmrc: .*gitleaks\/npm-access-token, supervisor\/npmrc-auth.*--no-secret-scan/);
  });

  it('runs a rule only on a text holding one of its keywords, and every rule but two names some', () => {
    const rules = allSecretRules();
    assert.deepEqual(rules.filter((r) => r.keywords.length === 0).map((r) => r.id).sort(), ['gitleaks/pkcs12-file', 'supervisor/dotenv-value']);
    for (const rule of rules) for (const word of rule.keywords) assert.equal(word, word.toLowerCase(), rule.id);
    let ran = 0;
    const counting = rules.map((rule) => ({ ...rule, found: (text: Parameters<typeof rule.found>[0]) => (ran++, rule.found(text)) }));
    const engine = secretEngine(counting);
    assert.deepEqual(engine.scan('src/a.ts', 'export function add(a: number, b: number) {\n  return a + b;\n}\n'), []);
    assert.equal(ran, 1, 'only the rule without keywords (pkcs12-file, by path) ran');
    assert.ok(engine.scan('ci.sh', `export GITHUB_TOKEN=${gh}\n`).includes('gitleaks/github-pat'));
  });
});

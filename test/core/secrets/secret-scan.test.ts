/** The secret scan: secretlint's recommended rules find the secrets issue 13 names, and nothing in ordinary code. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { createSecretScanner, mayHoldSecret, NO_SECRET_SCAN, secretNotice } from '../../../core/secrets/secret-scan.ts';
import { changeMiddleLine, rsaKeyPem, secretCorpus } from '../../helpers/secret-corpus.ts';

// Assembled at run time, so no secret scanner ever sees one in this file.
const gh = ['ghp', 'Zq8xW2mK4nR7tY1uI3oP5aS6dF9gH0jL2kX4'].join('_');
const npm = ['npm', 'Qw3rTy7uIo9pAs1dFg5hJk2lZx8cVb4nM6q0'].join('_');
const key = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi3Vt6Zj2R8vZ9xk5bYZ0R8vZ9x', 'k5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bY', '-----END RSA PRIVATE KEY-----', ''].join('\n');

describe('secret scan', () => {
  const scanner = createSecretScanner();
  const cases: [string, string, string][] = [
    ['id_rsa', key, '@secretlint/secretlint-rule-privatekey'],
    ['server.pem', key.replaceAll('RSA ', ''), '@secretlint/secretlint-rule-privatekey'],
    ['.npmrc', `//registry.npmjs.org/:_authToken=${npm}\n`, '@secretlint/secretlint-rule-npm'],
    ['.git-credentials', `https://alice:${gh}@github.com\n`, '@secretlint/secretlint-rule-basicauth'],
    ['prod.env', 'DATABASE_URL=postgres://admin:Pr0dDbPassw0rd@db.example.com:5432/prod\n', '@secretlint/secretlint-rule-database-connection-string'],
    ['ci.sh', `export GITHUB_TOKEN=${gh}\n`, '@secretlint/secretlint-rule-github'],
    ['keys/sa.json', JSON.stringify({ type: 'service_account', project_id: 'p', private_key_id: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0', private_key: key, client_email: 'x@p.iam.gserviceaccount.com' }), '@secretlint/secretlint-rule-gcp'],
    ['.git/config', '[remote "origin"]\n\turl = https://alice:RemoteS3cretPw@github.com/acme/app.git\n', '@secretlint/secretlint-rule-basicauth'],
  ];
  for (const [path, content, rule] of cases) {
    it(`finds the secret in ${path} (${rule})`, async () => {
      assert.ok((await scanner.scan(path, content)).includes(rule));
    });
  }

  for (const file of secretCorpus()) {
    it(`finds the secret in ${file.path} (${file.rule}), a format the preset misses`, async () => {
      assert.ok((await scanner.scan(file.path, file.content)).includes(file.rule), file.content);
    });
  }

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
      assert.ok((await scanner.scan(path, 'HOST=db\nDB_PASSWORD=Zx81kQ0pLm\n')).includes('supervisor/env-assignment'), path);
      assert.ok((await scanner.scan(path, 'export SERVICE_API_KEY="9f3a7c1e0b2d4f6a"\n')).includes('supervisor/env-assignment'), path);
      assert.ok((await scanner.scan(path, 'db.password: hunter2000\n')).includes('supervisor/env-assignment'), path);
      // A document's example value is not a credential: too short, or too plain.
      assert.ok(!(await scanner.scan(path, 'VITE_SOME_KEY=123\nDB_PASSWORD=foobar\n')).includes('supervisor/env-assignment'), path);
      assert.ok(!(await scanner.scan(path, 'API_KEY=aaaaaaaaaaaa\n')).includes('supervisor/env-assignment'), path);
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
    const notice = secretNotice('glob', '.npmrc', ['@secretlint/secretlint-rule-npm', 'supervisor/jwt']);
    assert.match(notice, /^glob: left out \.npmrc: .*@secretlint\/secretlint-rule-npm, supervisor\/jwt.*--no-secret-scan/);
  });

  it('skips secretlint only for texts no rule of the pinned preset can report on', async () => {
    // mayHoldSecret was read off these rules of this version: a new version or rule must be read again.
    const manifest = createRequire(import.meta.url).resolve('@secretlint/secretlint-rule-preset-recommend/package.json');
    assert.equal((JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version, '13.0.7');
    const ids = rules.map((r) => r.meta.id.replace('@secretlint/secretlint-rule-', '')).sort();
    assert.deepEqual(ids, ['1password', 'anthropic', 'aws', 'basicauth', 'cloudflare', 'database-connection-string', 'databricks', 'docker', 'figma', 'filter-comments', 'gcp', 'github', 'gitlab', 'grafana', 'groq', 'hashicorp-vault', 'huggingface', 'linear', 'notion', 'npm', 'openai', 'privatekey', 'sendgrid', 'shopify', 'slack', 'stripe', 'tailscale', 'vercel']);
    for (const [path, content] of cases) assert.ok(mayHoldSecret(path.endsWith('.json') ? '.json' : '', content), path);
    assert.ok(mayHoldSecret('.json', '{"\\u0070rivate_key_id": 1}'), 'a JSON escape may spell the GCP key names');
    assert.ok(!mayHoldSecret('.ts', 'export const url = "https://example.com/a";\nconst secret = 1;\n'));
    assert.ok(!mayHoldSecret('.json', '{"name": "x"}'));
  });
});

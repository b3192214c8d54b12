/** The secret scan: secretlint's recommended rules find the secrets issue 13 names, and nothing in ordinary code. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { createSecretScanner, mayHoldSecret, NO_SECRET_SCAN, secretNotice } from '../../../core/context/secret-scan.ts';

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

  it('finds nothing in ordinary code, in blank text, or with the scan turned off', async () => {
    assert.deepEqual(await scanner.scan('a.ts', 'export const token = process.env.GITHUB_TOKEN;\nconst url = "https://github.com/acme/app";\n'), []);
    assert.deepEqual(await scanner.scan('blank.txt', ' \n\t\n'), []);
    assert.deepEqual(await NO_SECRET_SCAN.scan('ci.sh', `GITHUB_TOKEN=${gh}\n`), []);
  });

  it('names the file and the rules in its notice, and how to opt out', () => {
    const notice = secretNotice('glob', '.npmrc', ['@secretlint/secretlint-rule-npm']);
    assert.match(notice, /^glob: left out \.npmrc: .*@secretlint\/secretlint-rule-npm.*--no-secret-scan/);
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

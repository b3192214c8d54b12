/**
 * The generic rules (secret-generic.ts, secret-values.ts): names judged by their last word,
 * values by what a password or token looks like, password characters that are not
 * delimiters, source code scanned only by the strict rules; and no false alarm on a sample of
 * a real project's files that name secrets (vite's, test/fixtures/secret-scan/vite-sample.json).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isCode, secretName } from '../../../core/secrets/secret-generic.ts';
import { allSecretRules, secretEngine } from '../../../core/secrets/secret-scan.ts';
import { isReference } from '../../../core/secrets/secret-values.ts';

const engine = secretEngine();

describe('generic secret rules', () => {
  it('judges a name by its last word: DB_PASS and dbPassword are secrets, primary_key and tokenizer are not', () => {
    for (const name of ['DB_PASS', 'dbPassword', 'db.pass', 'client-secret', 'CLIENT_SECRET', 'STRIPE_API_KEY', 'apiKey', 'githubToken', 'private_key', 'AWS_SECRET_ACCESS_KEY', 'credentials']) {
      assert.ok(secretName(name), name);
    }
    for (const name of ['primary_key', 'cacheKey', 'tokenizer', 'passthrough', 'password_length', 'bypass_cache', 'author', 'key']) assert.equal(secretName(name), undefined, name);
  });

  it('takes a value for a reference only when the whole of it is one', () => {
    for (const value of ['$DB_PASSWORD', '$db_password', '${DB_PASSWORD}', '${X:-y}', '%(pw)s', '{{ secrets.pw }}', '<your token>', 'changeme', 'xxxxxxxx']) assert.ok(isReference(value), value);
    for (const value of ['$uperS3cret#1', '$Zq8xW2mK4', '(x[y;z,w#9', 'my-s3cret-pw9']) assert.ok(!isReference(value), value);
  });

  it('reads password characters as part of the value: # ; , ( [ a leading $, quoted spaces', () => {
    for (const line of ['DB_PASSWORD=ab#cd9ef', 'DB_PASSWORD=ab;cd9ef', 'DB_PASSWORD=ab,cd9ef', 'DB_PASSWORD=(abcd9ef', 'DB_PASSWORD=[abcd9ef', 'DB_PASSWORD=$Abcd9ef#', 'DB_PASSWORD="ab cd 9ef"', 'DB_PASS=Zx81kQ0pLm', "password: 'ab cd 9ef'"]) {
      assert.deepEqual(engine.scan('config/app.conf', `${line}\n`), ['supervisor/generic-assignment'], line);
    }
    // " #" starts a comment: the value before it is what is judged.
    assert.deepEqual(engine.scan('config/app.conf', 'DB_PASSWORD=foobar # the local one\n'), []);
  });

  it('takes a random value in a .env file under any name, and leaves its URLs, paths, numbers and words', () => {
    assert.deepEqual(engine.scan('deploy/.env.production', 'UPSTREAM=q7Rk2xW9pL4mZ8vB3nT6\n'), ['supervisor/dotenv-value']);
    assert.deepEqual(engine.scan('deploy/.env.production', 'API_URL=https://api.example.com/v1/items?limit=100\nROOT=/srv/app/releases/20240101\nPORT=8080\nMODE=production-like-mode\nVERSION=1.22.333.4444\n'), []);
    assert.deepEqual(engine.scan('deploy/settings.txt', 'UPSTREAM=q7Rk2xW9pL4mZ8vB3nT6\n'), [], 'not a .env file: a name must say secret');
  });

  it('scans source code with the strict rules only: a quoted literal under a secret name, not the generic ones', () => {
    const yaml = 'auth: dXNlcjpwYXNzd29yZDEyMw==\nsecret: q7Rk2xW9pL4mZ8vB\n';
    assert.ok(engine.scan('config/app.yaml', yaml).includes('supervisor/generic-assignment'));
    assert.deepEqual(engine.scan('src/app.ts', yaml), []);
    assert.deepEqual(engine.scan('src/app.ts', 'const password = "Xk9#mP2qL7zz";\n'), ['supervisor/code-assignment']);
    assert.deepEqual(engine.scan('src/app.ts', 'const SECRET = "OUTSIDE-SECRET-TEXT";\nconst token = `Bearer ${key}`;\nconst accessToken = "access_token";\n'), []);
    assert.ok(isCode('src/a.tsx') && isCode('lib/x.py') && !isCode('.env.c') && !isCode('config.yaml'));
  });

  it("flags none of vite's files that name secrets, by any rule, nor by the generic rules run on its code too", () => {
    const sample = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/secret-scan/vite-sample.json'), 'utf8')) as { source: { commit: string }; files: Record<string, string> };
    const files = Object.entries(sample.files);
    assert.ok(files.length >= 70, `${files.length} files`);
    assert.ok(files.filter(([path]) => /(?:^|\/)\.env/.test(path)).length >= 16, 'every .env file of vite is in the sample');
    const generic = allSecretRules().filter((rule) => rule.confidence === 'generic');
    const flagged = files.filter(([path, content]) => engine.scan(path, content).length > 0).map(([path]) => path);
    const flaggedGeneric = files.filter(([path, content]) => generic.some((rule) => rule.found({ path, content, code: false }))).map(([path]) => path);
    assert.deepEqual({ flagged, flaggedGeneric }, { flagged: [], flaggedGeneric: [] }, `of ${files.length} files`);
  });
});

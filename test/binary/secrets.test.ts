/**
 * Secrets stay out of prompts, through the built binary (issue 13, item 5): a private key, an
 * `.npmrc` token, `.git-credentials`, `prod.env`, a `.pem`, `GITHUB_TOKEN=` lines, `.git/config`
 * with credentials in its remote URL, a staged `.env` under a reviewer's staged diff and
 * `always_include: ["*"]` — none reaches `pack` or `prompt` output, each file held back by the
 * scan gets a notice naming it and the rule, and with --no-secret-scan they are packed.
 * Issue 18: the corpus of every format the preset missed (test/helpers/secret-corpus.ts) and a
 * staged change in the middle of a committed private key (a hunk without the BEGIN line).
 * Issue 27 (S01): the corpus holds every format that then reached a prompt, as files and as
 * staged diffs.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { git, makeRepo, writeFiles } from '../helpers/git-repo.ts';
import { changeMiddleLine, pemBodyLines, rsaKeyPem, secretCorpus } from '../helpers/secret-corpus.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

// Assembled at run time, so no secret scanner ever sees one in this file.
const ghToken = ['ghp', 'Zq8xW2mK4nR7tY1uI3oP5aS6dF9gH0jL2kX4'].join('_');
const npmToken = ['npm', 'Qw3rTy7uIo9pAs1dFg5hJk2lZx8cVb4nM6q0'].join('_');
const keyBody = 'MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi3Vt6Zj2R8vZ9xk5bYZ0R8vZ9x\nk5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bYZ0R8vZ9xk5bY';
const pem = (kind: string) => `-----BEGIN ${kind}PRIVATE KEY-----\n${keyBody}\n-----END ${kind}PRIVATE KEY-----\n`;
const dbPassword = 'Pr0dDbPassw0rd';
const remotePassword = 'RemoteS3cretPw';

/** Each file with a secret, the text that must never appear, and a rule that finds it. */
const SECRETS: [path: string, secret: string, rule: string][] = [
  ['keys/id_rsa', keyBody.slice(0, 40), 'gitleaks/private-key'],
  ['certs/server.pem', keyBody.slice(0, 40), 'gitleaks/private-key'],
  ['.npmrc', npmToken, 'gitleaks/npm-access-token'],
  ['.git-credentials', ghToken, 'supervisor/url-credentials'],
  ['prod.env', dbPassword, 'supervisor/url-credentials'],
  ['scripts/ci.sh', ghToken, 'gitleaks/github-pat'],
];

async function secretRepo(): Promise<string> {
  const repo = await makeRepo({ 'src/app.ts': 'export const app = 1;\n', '.gitignore': 'private/\n' });
  await writeFiles(repo, {
    'keys/id_rsa': pem('RSA '),
    'certs/server.pem': pem(''),
    '.npmrc': `//registry.npmjs.org/:_authToken=${npmToken}\n`,
    '.git-credentials': `https://alice:${ghToken}@github.com\n`,
    'prod.env': `DATABASE_URL=postgres://admin:${dbPassword}@db.internal.example.com:5432/prod\n`,
    'scripts/ci.sh': `#!/bin/sh\nexport GITHUB_TOKEN=${ghToken}\n`,
    'private/notes.txt': 'gitignored: PRIVATE-NOTES-TEXT\n',
    '.env': 'PLAIN_ENV_VALUE=dotenv-only-text\n',
  });
  git(repo, 'config', 'remote.origin.url', `https://alice:${remotePassword}@github.com/acme/app.git`);
  return repo;
}

const noneOf = (text: string, secrets: string[]) => {
  for (const secret of secrets) assert.ok(!text.includes(secret), `leaked ${secret}`);
};

describe('secrets never reach pack or prompt output (binary)', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });

  it('pack leaves out every file with a secret, naming the file and the rule; --no-secret-scan packs them', async () => {
    const repo = await secretRepo();
    const packed = await box.run(['pack', '--no-user-plugins'], { cwd: repo });
    assert.equal(packed.code, 0, packed.stderr);
    assert.match(packed.stdout, /### src\/app\.ts/);
    noneOf(packed.stdout, [...SECRETS.map(([, secret]) => secret), 'PRIVATE-NOTES-TEXT', 'dotenv-only-text', remotePassword]);
    for (const [path, , rule] of SECRETS) {
      const line = packed.stderr.split('\n').find((l) => l.includes(`left out ${path}:`));
      assert.ok(line, `no notice for ${path}:\n${packed.stderr}`);
      assert.ok(line.includes(rule), `${path}: ${line}`);
    }

    const optOut = await box.run(['pack', '--no-user-plugins', '--no-secret-scan'], { cwd: repo });
    assert.equal(optOut.code, 0, optOut.stderr);
    for (const [path, secret] of SECRETS) assert.ok(optOut.stdout.includes(secret) && optOut.stdout.includes(`### ${path}`), `${path} not packed with --no-secret-scan`);
    noneOf(optOut.stdout, [remotePassword]); // .git is never packed, scan or no scan
  });

  it("never packs .git, even when included by name: the remote URL's credentials stay out", async () => {
    const repo = await secretRepo();
    for (const include of ['.git/*', '.git/**', '.git/config']) {
      for (const extra of [[], ['--no-secret-scan']]) {
        const packed = await box.run(['pack', '--no-user-plugins', '--include', include, ...extra], { cwd: repo });
        noneOf(packed.stdout, [remotePassword, '[remote "origin"]']);
        assert.doesNotMatch(packed.stdout, /### \.git\//);
      }
    }
    const named = await box.run(['pack', '--no-user-plugins', '--include', '.git/config'], { cwd: repo });
    assert.match(named.stderr, /\.git\/config/);
  });

  it("a staged .env and a staged token stay out of the reviewer's prompt, and the notices say only what is true", async () => {
    const repo = await makeRepo({ 'src/app.ts': 'export const app = 1;\n' });
    await writeFiles(repo, {
      '.env': `GITHUB_TOKEN=${ghToken}\nDOTENV_MARKER=staged-dotenv\n`,
      'deploy.sh': `export GITHUB_TOKEN=${ghToken}\n`,
      'src/app.ts': 'export const app = 2;\n',
    });
    git(repo, 'add', '-f', '.env', 'deploy.sh', 'src/app.ts');
    const prompt = await box.run(['prompt', 'reviewer', '--no-user-plugins', '--task', 'review the change'], { cwd: repo });
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /export const app = 2;/); // the rest of the diff is there
    noneOf(prompt.stdout, [ghToken, 'staged-dotenv']);
    assert.match(prompt.stderr, /left out the diff of 1 file \(excluded, gitignored or on the default ignore list\): \.env/);
    assert.match(prompt.stderr, /left out the diff of deploy\.sh: .*gitleaks\/github-pat/);

    const optOut = await box.run(['prompt', 'reviewer', '--no-user-plugins', '--no-secret-scan', '--task', 'review the change'], { cwd: repo });
    assert.equal(optOut.code, 0, optOut.stderr);
    assert.match(optOut.stdout, /\+export GITHUB_TOKEN=/); // deploy.sh's diff is packed
    noneOf(optOut.stdout, ['staged-dotenv']); // .env stays on the default ignore list
  });

  it('always_include: ["*"] packs no .env, no gitignored file and no file with a secret', async () => {
    const repo = await secretRepo();
    await writeFiles(repo, {
      'top.sh': `GITHUB_TOKEN=${ghToken}\n`,
      'README.md': '# readme\n',
      '.supervisor/roles/everything.yaml': 'name: everything\nextends: reviewer\ncli: replay\ncontext:\n  always_include: ["*", "private/*"]\n',
    });
    const packed = await box.run(['pack', '--no-user-plugins', '--role', 'everything'], { cwd: repo });
    assert.equal(packed.code, 0, packed.stderr);
    assert.match(packed.stdout, /## Required Context[\s\S]*### README\.md/);
    noneOf(packed.stdout, [ghToken, 'dotenv-only-text', 'PRIVATE-NOTES-TEXT', npmToken, dbPassword]);
    assert.match(packed.stderr, /always_include: left out top\.sh: .*gitleaks\/github-pat/);
  });

  it('run holds back a secret target too (--dry-run shows the prompt), and run --no-secret-scan packs it', async () => {
    const repo = await secretRepo();
    const args = ['run', 'implementer', '--no-user-plugins', '--cli', 'replay', '--dry-run', '--task', 'fix ci', '--target', 'scripts/ci.sh'];
    const dry = await box.run(args, { cwd: repo });
    assert.equal(dry.code, 0, dry.stderr);
    assert.ok(!dry.stdout.includes(ghToken));
    assert.match(dry.stdout, /\[Left out: it looks like it holds a secret\]/);
    assert.match(dry.stderr, /target: left out scripts\/ci\.sh: .*gitleaks\/github-pat/);
    const optOut = await box.run([...args, '--no-secret-scan'], { cwd: repo });
    assert.ok(optOut.stdout.includes(ghToken), optOut.stderr);
  });

  it("pack and prompt leave out every file of the corpus and a changed key's hunk, each named in a notice", async () => {
    const corpus = secretCorpus();
    const rsa = rsaKeyPem();
    const repo = await makeRepo({ 'src/app.ts': 'export const app = 1;\n', 'keys/legacy_rsa': rsa });
    await writeFiles(repo, Object.fromEntries(corpus.map((f) => [f.path, f.content])));
    const changedKey = changeMiddleLine(rsa);
    await writeFiles(repo, { 'keys/legacy_rsa': changedKey, 'src/app.ts': 'export const app = 2;\n' });
    git(repo, 'add', '-A');
    const hunk = git(repo, 'diff', '--cached', '--', 'keys/legacy_rsa');
    assert.doesNotMatch(hunk, /BEGIN/); // the case: body lines only
    const secrets = [...corpus.flatMap((f) => f.secrets), ...pemBodyLines(rsa), ...pemBodyLines(changedKey)];

    const packed = await box.run(['pack', '--no-user-plugins'], { cwd: repo });
    assert.equal(packed.code, 0, packed.stderr);
    assert.match(packed.stdout, /### src\/app\.ts/);
    noneOf(packed.stdout, secrets);
    for (const file of [...corpus, { path: 'keys/legacy_rsa', rule: 'gitleaks/private-key' }]) {
      const line = packed.stderr.split('\n').find((l) => l.includes(`left out ${file.path}:`));
      assert.ok(line, `no notice for ${file.path}:\n${packed.stderr}`);
      assert.ok(line.includes(file.rule), `${file.path}: ${line}`);
    }

    const prompt = await box.run(['prompt', 'reviewer', '--no-user-plugins', '--task', 'review the change'], { cwd: repo });
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /export const app = 2;/);
    noneOf(prompt.stdout, secrets);
    assert.match(prompt.stderr, /left out the diff of keys\/legacy_rsa: .*supervisor\/private-key-body/);
    for (const file of corpus) assert.ok(prompt.stderr.includes(`left out the diff of ${file.path}:`), `no notice for the diff of ${file.path}:\n${prompt.stderr}`);
  });
});

/**
 * The repomix packer: found in node_modules/.bin, run with the right arguments, and — when it
 * cannot be had (no npx, npx failing offline, npx hanging) — a fast fallback to glob with a
 * notice. Fake executables stand in for npx and repomix at the process boundary.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { which } from '../../../core/process/which.ts';
import repomix, { REPOMIX_VERSION } from '../../../plugins/packers/repomix.ts';
import { makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { packContextFor, request } from './_context.ts';
import { requires } from '../../helpers/requires.ts';

/** A folder holding executable shell scripts, to put first on PATH. */
async function fakeBin(scripts: Record<string, string>): Promise<string> {
  const dir = await tempDir('sv-fakebin-');
  for (const [name, body] of Object.entries(scripts)) {
    await writeFiles(dir, { [name]: `#!/bin/sh\n${body}\n` });
    await chmod(join(dir, name), 0o755);
  }
  return dir;
}

const envWith = (dir: string) => ({ ...process.env, PATH: `${dir}:/usr/bin:/bin` });

describe('repomix packer', () => {
  it('falls back to glob, quickly and with a notice, when npx cannot fetch repomix offline', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'a\n' });
    const log = join(await tempDir(), 'npx.log');
    const bin = await fakeBin({ npx: `echo "$@ offline=$npm_config_offline yes=$npm_config_yes" >> ${log}\necho "npm error code ENOTCACHED" >&2\nexit 1` });
    const ctx = packContextFor(repo, envWith(bin));
    const result = await repomix.pack(request(repo, { include: ['src/**'] }), ctx);
    assert.deepEqual(result.parts.map((p) => [p.key, p.files]), [['files', ['src/a.ts']]]);
    assert.match(result.notices[0]!, new RegExp(`^repomix: npx repomix@${REPOMIX_VERSION} is not available offline \\(npm error code ENOTCACHED\\); packed with glob instead$`));
    // npx was asked offline and never to prompt: what the probe's environment held, not a constant's value.
    assert.equal((await readFile(log, 'utf8')).trim(), `--yes repomix@${REPOMIX_VERSION} --version offline=true yes=true`);
  });

  it('ends an npx that hangs at the probe timeout and falls back', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'a\n' });
    const bin = await fakeBin({ npx: 'exec sleep 30' });
    const ctx = packContextFor(repo, envWith(bin));
    const result = await repomix.pack(request(repo, { include: ['src/**'], context: { repomix_probe_timeout_ms: 200 } }), ctx);
    assert.deepEqual(result.parts[0]?.files, ['src/a.ts']);
    assert.match(result.notices[0]!, /^repomix: npx repomix@[\d.]+ did not answer within \d+ ms; packed with glob instead$/);
  });

  it('falls back when there is neither repomix nor npx (a folder of that name on PATH is neither)', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    const empty = await tempDir('sv-empty-path-');
    await mkdir(join(empty, 'repomix'));
    await mkdir(join(empty, 'npx'));
    const result = await repomix.pack(request(repo), packContextFor(repo, { PATH: empty }));
    assert.deepEqual(result.parts[0]?.files, ['a.ts']);
    assert.equal(result.notices[0], 'repomix: repomix is not installed and npx is not on PATH; packed with glob instead');
  });

  it("runs a trusted repository's node_modules/.bin/repomix with the request (packed files ignored), and reads the files it packed", async () => {
    const repo = await makeRepo({ 'src/a.ts': 'a\n' });
    const args = join(await tempDir(), 'args');
    await writeFiles(repo, {
      'node_modules/.bin/repomix': [
        '#!/bin/sh',
        `printf '%s\\n' "$@" > ${args}`,
        'while [ "$1" != "--output" ]; do shift; done',
        `printf '<files>\\n<file path="src/a.ts">\\na\\n</file>\\n<file path="x&amp;y.ts">\\nb\\n</file>\\n</files>\\n' > "$2"`,
      ].join('\n'),
    });
    await chmod(join(repo, 'node_modules/.bin/repomix'), 0o755);
    const result = await repomix.pack(request(repo, { include: ['src/**', '*.md'], exclude: ['**/*.test.ts'], skipFiles: ['src/t[1].ts'], style: 'xml', context: { repomix_security_check: false } }), { ...packContextFor(repo), repoTrusted: true });
    assert.deepEqual(result.notices, []);
    assert.deepEqual(result.parts.map((p) => [p.key, p.files]), [['files', ['src/a.ts', 'x&y.ts']]]);
    const argv = (await readFile(args, 'utf8')).trim().split('\n');
    assert.deepEqual(argv.filter((a) => !a.includes('sv-repomix-')), ['--style', 'xml', '--output', '--quiet', '--no-file-summary', '--include', 'src/**,*.md', '--ignore', '**/*.test.ts,src/t\\[1\\].ts', '--no-security-check', '.']);
  });

  it("does not run an untrusted repository's node_modules/.bin/repomix (nor npx, which would pick it up): glob packs, a notice says why", async () => {
    const repo = await makeRepo({ 'src/a.ts': 'a\n' });
    const ran = join(await tempDir(), 'ran');
    await writeFiles(repo, { 'node_modules/.bin/repomix': `#!/bin/sh\ntouch ${ran}\n` });
    await chmod(join(repo, 'node_modules/.bin/repomix'), 0o755);
    const npx = await fakeBin({ npx: `touch ${ran}` });
    const result = await repomix.pack(request(repo, { include: ['src/**'] }), packContextFor(repo, envWith(npx)));
    assert.equal(existsSync(ran), false);
    assert.deepEqual(result.parts[0]?.files, ['src/a.ts']);
    assert.match(result.notices[0] ?? '', /repomix was not run: this repository is not trusted .*supervisor trust/);
  });

  it("does not run an untrusted repository's repomix found through PATH: a relative node_modules/.bin is skipped, an entry into the repository refused", async () => {
    const repo = await makeRepo({ 'src/a.ts': 'a\n' });
    const ran = join(await tempDir(), 'ran');
    await writeFiles(repo, { 'node_modules/.bin/repomix': `#!/bin/sh\ntouch ${ran}\n` });
    await chmod(join(repo, 'node_modules/.bin/repomix'), 0o755);
    const npx = await fakeBin({ npx: 'exit 1' });
    const cwd = process.cwd();
    process.chdir(repo);
    try {
      assert.equal(which('repomix', { PATH: 'node_modules/.bin' }), undefined);
      for (const entry of ['node_modules/.bin', join(repo, 'node_modules', '.bin')]) {
        const result = await repomix.pack(request(repo, { include: ['src/**'] }), packContextFor(repo, { ...process.env, PATH: `${entry}:${npx}:/usr/bin:/bin` }));
        assert.equal(existsSync(ran), false, entry);
        assert.deepEqual(result.parts[0]?.files, ['src/a.ts']);
        assert.match(result.notices[0] ?? '', /was not run: .*not trusted/);
      }
    } finally {
      process.chdir(cwd);
    }
  });

  it('treats output with no files in it (nothing matched) as nothing packed: glob decides', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    const bin = await fakeBin({ repomix: `while [ "$1" != "--output" ]; do shift; done\nprintf '# Directory Structure\n\x60\x60\x60\n\n\x60\x60\x60\n\n# Files\n' > "$2"` });
    const result = await repomix.pack(request(repo, { include: ['nothing/**'] }), packContextFor(repo, envWith(bin)));
    assert.deepEqual(result.parts, []);
    assert.deepEqual(result.notices, ['repomix: repomix packed no files; packed with glob instead', 'glob: no files match nothing/**']);
  });

  it('falls back when repomix itself fails', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    const bin = await fakeBin({ repomix: 'echo boom >&2; exit 3' });
    const result = await repomix.pack(request(repo), packContextFor(repo, envWith(bin)));
    assert.deepEqual(result.parts[0]?.files, ['a.ts']);
    assert.equal(result.notices[0], 'repomix: repomix failed (exit code 3: boom); packed with glob instead');
  });

  it('`supervisor pack --packer repomix` falls back and says so on stderr', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    const bin = await fakeBin({ npx: 'exit 1' });
    const run = await runCli(['pack', '--packer', 'repomix', '--include', 'src/**'], { cwd: repo, env: { PATH: `${bin}:/usr/bin:/bin` } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /### src\/a\.ts/);
    assert.match(run.stderr, /notice: repomix: .*packed with glob instead/);
  });

  const real = join(import.meta.dirname, '../../../scripts/bench/node_modules/.bin');
  it('packs with the real repomix (pinned in scripts/bench, installed by the README\'s test set-up)', requires(!existsSync(join(real, 'repomix')) && 'the real repomix is not installed: npm ci --prefix scripts/bench'), async () => {
    const repo = await makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# r\n' });
    const result = await repomix.pack(request(repo, { include: ['src/**'], style: 'markdown' }), packContextFor(repo, { ...process.env, PATH: `${real}:${process.env.PATH}` }));
    assert.deepEqual(result.notices, []);
    assert.deepEqual(result.parts[0]?.files, ['src/a.ts']);
    assert.match(result.parts[0]!.content, /## File: src\/a\.ts\n```typescript\nexport const a = 1;\n```/);
  });

  it("cuts a file that looks like it holds a secret out of repomix's output, with a notice; refuses output listing .git", async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n', 'b.sh': 'b\n' });
    const token = ['ghp', 'Zq8xW2mK4nR7tY1uI3oP5aS6dF9gH0jL2kX4'].join('_');
    const writes = (body: string) => `while [ "$1" != "--output" ]; do shift; done\nprintf '${body}' > "$2"`;
    const bin = await fakeBin({ repomix: writes(`# Files\\n\\n## File: a.ts\\n\`\`\`\\na\\n\`\`\`\\n\\n## File: b.sh\\n\`\`\`\\nGITHUB_TOKEN=${token}\\n\`\`\`\\n`) });
    const result = await repomix.pack(request(repo, { include: ['*'] }), packContextFor(repo, envWith(bin)));
    assert.deepEqual(result.parts.map((p) => p.files), [['a.ts']]);
    assert.ok(!result.parts[0]!.content.includes(token));
    assert.match(result.notices.join('\n'), /^repomix: left out b\.sh: .*gitleaks\/github-pat/m);

    const gitBin = await fakeBin({ repomix: writes('## File: .git/config\\n```\\n[core]\\n```\\n') });
    const refused = await repomix.pack(request(repo, { include: ['*'] }), packContextFor(repo, envWith(gitBin)));
    assert.match(refused.warnings?.[0] ?? '', /refused its output: \.git\/config/);
    assert.ok(!refused.parts.some((p) => p.content.includes('[core]')));
  });
});

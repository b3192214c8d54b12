/**
 * The secret scan's kept clean verdicts (core/context/secret-verdicts.ts): a clean text is
 * scanned once across commands; a text with a secret every time; a verdict only counts for the
 * same path, content and rules; the cache lives only in the user's checked cache folder, so a
 * verdict a repository carries is never read (SECURITY I5 with I4).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { packFileContext } from '../../../core/context/pack.ts';
import { cachedScanner, verdictFileName } from '../../../core/context/secret-verdicts.ts';
import { createSecretScanner, type SecretScanner } from '../../../core/secrets/secret-scan.ts';
import { makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { makeRole, packerRegistry } from './_helpers.ts';

// Assembled at run time, so no secret scanner ever sees one in this file.
const gh = ['ghp', 'Zq8xW2mK4nR7tY1uI3oP5aS6dF9gH0jL2kX4'].join('_');

/** The real scanner, counting the texts it really scans. */
function counting(): SecretScanner & { scanned: string[] } {
  const inner = createSecretScanner();
  const scanned: string[] = [];
  return { scanned, scan: (path, content, bytes) => (scanned.push(path), inner.scan(path, content, bytes)) };
}

describe('kept secret-scan verdicts', () => {
  it('scans a clean text once across commands, a text with a secret every time, and a moved or changed text again', async () => {
    const env = { SUPERVISOR_CACHE_DIR: join(await tempDir(), 'cache') };
    const first = counting();
    const one = cachedScanner(first, env);
    assert.deepEqual(await one.scan('src/a.ts', 'export const a = 1;\n'), []);
    assert.ok((await one.scan('ci.sh', `GITHUB_TOKEN=${gh}\n`)).includes('gitleaks/github-pat'));
    one.save();
    const second = counting();
    const two = cachedScanner(second, env); // the next command
    assert.deepEqual(await two.scan('src/a.ts', 'export const a = 1;\n'), []);
    assert.ok((await two.scan('ci.sh', `GITHUB_TOKEN=${gh}\n`)).includes('gitleaks/github-pat'));
    assert.deepEqual(await two.scan('src/b.ts', 'export const a = 1;\n'), [], 'same content, another path');
    assert.deepEqual(await two.scan('src/a.ts', 'export const a = 2;\n'), []);
    assert.deepEqual(second.scanned, ['ci.sh', 'src/b.ts', 'src/a.ts']);
    const files = readdirSync(env.SUPERVISOR_CACHE_DIR);
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^secret-verdicts-[0-9a-f]{16}\.txt$/);
  });

  it("keys a file's text by its bytes: the reader's verdict serves the same text scanned alone (a diff's), and no other", async () => {
    const env = { SUPERVISOR_CACHE_DIR: join(await tempDir(), 'cache') };
    const one = cachedScanner(counting(), env);
    const text = 'export const ü = 1;\n';
    assert.deepEqual(await one.scan('src/u.ts', text, Buffer.from(text)), []);
    // Bytes that are not UTF-8 decode to a text that does not encode back to them.
    const invalid = Buffer.from([0x61, 0xff, 0x0a]);
    assert.deepEqual(await one.scan('src/odd.txt', invalid.toString('utf8'), invalid), []);
    one.save();
    const second = counting();
    const two = cachedScanner(second, env);
    assert.deepEqual(await two.scan('src/u.ts', text), []);
    assert.deepEqual(await two.scan('src/odd.txt', invalid.toString('utf8')), []);
    assert.deepEqual(second.scanned, ['src/odd.txt'], 'the same text, the same key; the decoded one is another text');
  });

  it('keeps nothing when SUPERVISOR_SCAN_CACHE=0, or when the cache folder is a link or writable by others', async () => {
    const root = await tempDir();
    mkdirSync(join(root, 'real'), { mode: 0o700 });
    symlinkSync(join(root, 'real'), join(root, 'link'));
    mkdirSync(join(root, 'open'));
    chmodSync(join(root, 'open'), 0o777);
    for (const env of [{ SUPERVISOR_CACHE_DIR: join(root, 'real'), SUPERVISOR_SCAN_CACHE: '0' }, { SUPERVISOR_CACHE_DIR: join(root, 'link') }, { SUPERVISOR_CACHE_DIR: join(root, 'open') }]) {
      for (let command = 0; command < 2; command++) {
        const inner = counting();
        const scanner = cachedScanner(inner, env);
        await scanner.scan('a.ts', 'const a = 1;\n');
        scanner.save();
        assert.deepEqual(inner.scanned, ['a.ts'], JSON.stringify(env));
      }
    }
    assert.deepEqual(readdirSync(join(root, 'real')), []);
    assert.deepEqual(readdirSync(join(root, 'open')), []);
  });

  it("never reads a verdict a repository carries: a forged 'clean' for its secret file in .supervisor/cache leaves the file out all the same", async () => {
    const content = `GITHUB_TOKEN=${gh}\n`;
    const forged = createHash('sha256').update('deploy.sh').update('\0').update(content).digest('base64url');
    const repo = await makeRepo({ 'deploy.sh': content, 'README.md': '# r\n' });
    mkdirSync(join(repo, '.supervisor', 'cache'), { recursive: true });
    // Under the very name the cache would use, in the repository's own state folder.
    await writeFile(join(repo, '.supervisor', 'cache', verdictFileName()), `${forged}\n`);
    const packed = await packFileContext({ role: makeRole({ include: ['**/*'] }), repoRoot: repo, targets: [], registry: packerRegistry() });
    assert.ok(!packed.text.includes(gh));
    assert.ok(packed.notices.some((n) => n.startsWith('glob: left out deploy.sh')), packed.notices.join('\n'));
  });
});

/** The trust list: real paths, folders covering what is inside them, a malformed file named. */
import assert from 'node:assert/strict';
import { mkdir, rm, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSupervisorError } from '../../../core/errors.ts';
import { decideTrust } from '../../../core/trust/decide.ts';
import { addTrusted, readTrustList, removeTrusted, trustFilePath } from '../../../core/trust/store.ts';
import { tempDir } from '../../helpers/git-repo.ts';

describe('trust list', () => {
  it('stores real paths, so a symlink to a trusted repository is the same repository', async () => {
    const home = await tempDir('sv-home-');
    const repo = await tempDir('sv-repo-');
    const link = join(await tempDir(), 'link');
    await symlink(repo, link);
    assert.deepEqual(await addTrusted(home, link), { path: await realpath(repo), added: true });
    assert.deepEqual(await addTrusted(home, repo), { path: await realpath(repo), added: false });
    assert.deepEqual(JSON.parse(await readFile(trustFilePath(home), 'utf8')), { trusted: [await realpath(repo)] });
    assert.equal((await decideTrust({ repoRoot: link, homeDir: home, flag: false })).via, 'list');
  });

  it('a trusted folder covers the repositories inside it, not its neighbours with a longer name', async () => {
    const home = await tempDir('sv-home-');
    const work = await realpath(await tempDir('sv-work-'));
    await mkdir(join(work, 'a', 'repo'), { recursive: true });
    await mkdir(`${work}-other`, { recursive: true });
    await addTrusted(home, work);
    assert.equal((await decideTrust({ repoRoot: join(work, 'a', 'repo'), homeDir: home, flag: false })).trusted, true);
    assert.equal((await decideTrust({ repoRoot: `${work}-other`, homeDir: home, flag: false })).trusted, false);
    assert.equal((await decideTrust({ repoRoot: `${work}-other`, homeDir: home, flag: true })).via, 'flag');
    assert.deepEqual(await removeTrusted(home, work), { path: work, removed: true });
    assert.deepEqual(await readTrustList(home), []);
  });

  it('removing a folder that is not listed is TRUST_NOT_LISTED (exit 2), naming the entry that covers it; a listed folder deleted since can still be removed', async () => {
    const home = await tempDir('sv-home-');
    const work = await realpath(await tempDir('sv-work-'));
    await mkdir(join(work, 'repo'));
    await addTrusted(home, work);
    await assert.rejects(removeTrusted(home, '/nonexistent'), (e) => isSupervisorError(e) && e.code === 'TRUST_NOT_LISTED' && e.exitCode === 2);
    await assert.rejects(removeTrusted(home, join(work, 'repo')), (e) => isSupervisorError(e) && e.code === 'TRUST_NOT_LISTED' && e.details.covered_by === work);
    await rm(work, { recursive: true });
    assert.deepEqual(await removeTrusted(home, work), { path: work, removed: true });
    await rm(home, { recursive: true });
  });

  it('refuses to trust the home folder itself or the root', async () => {
    const home = await tempDir('sv-home-');
    await assert.rejects(addTrusted(home, home), (e) => isSupervisorError(e) && e.code === 'TRUST_PATH');
    await assert.rejects(addTrusted(home, '/'), (e) => isSupervisorError(e) && e.code === 'TRUST_PATH');
  });

  it('names a malformed trust file instead of trusting or ignoring it', async () => {
    const home = await tempDir('sv-home-');
    await mkdir(join(home, '.supervisor'));
    await writeFile(trustFilePath(home), '{"trusted": ["relative/path"]}');
    await assert.rejects(readTrustList(home), (e) => isSupervisorError(e) && e.code === 'TRUST_FILE' && e.details.file === trustFilePath(home));
  });
});

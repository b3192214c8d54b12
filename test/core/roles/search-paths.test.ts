/** Where roles are found: precedence, .yml, same-name refinement, files given by path, files they name. */
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../core/assets.ts';
import { listRoleFiles, listRoles, loadListedRoleFile, loadRole, loadRoleFile, MAX_EXTENDS_DEPTH, type RoleFileCache } from '../../../core/roles/load-role.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { BASE, rejects, roleEnv } from './helpers.ts';

describe('role search paths', () => {
  it('prefers <repo>/.supervisor/roles over ~/.supervisor/roles over the built-ins, and lists what each hides', async () => {
    const env = await roleEnv({
      repo: { 'reviewer.yaml': { name: 'reviewer', ...BASE, description: 'repo' } },
      home: { 'reviewer.yaml': { name: 'reviewer', ...BASE, description: 'home' }, 'mine.yaml': { name: 'mine', ...BASE, description: 'home only' } },
    });
    assert.equal((await loadRole('reviewer', env.opts)).description, 'repo');
    assert.equal((await loadRole('mine', env.opts)).description, 'home only');
    const listed = await listRoles(env.opts);
    const reviewer = listed.find((r) => r.name === 'reviewer')!;
    assert.equal(reviewer.layer, 'repo');
    assert.equal(reviewer.shadows.length, 2);
    assert.equal(reviewer.shadows[0], join(env.homeRoles, 'reviewer.yaml'));
    assert.ok(listed.some((r) => r.name === 'planner' && r.layer === 'builtin'));
  });

  it('shares parsed parents between the loads of one listing without leaking one child into another', async () => {
    const env = await roleEnv({
      repo: {
        'base.yaml': { name: 'base', ...BASE, gates: ['npm test'], context: { include: ['src/**'] } },
        'a.yaml': { name: 'a', extends: 'base', gates: ['npm run lint'], context: { include: ['docs/**'], token_budget: 5000 } },
        'b.yaml': { name: 'b', extends: 'base' },
        'broken.yaml': 'name: broken\ndescription: [unclosed\n',
        'c.yaml': { name: 'c', extends: 'broken' },
        'd.yaml': { name: 'd', extends: 'broken' },
      },
    });
    const cache: RoleFileCache = new Map();
    const files = (await listRoleFiles(env.opts)).filter((f) => f.layerName === 'repo');
    const load = (name: string) => loadListedRoleFile(files.find((f) => f.name === name)!, env.opts, cache);
    const a = (await load('a')).role;
    const b = (await load('b')).role;
    assert.deepEqual([a.gates, a.context], [['npm test', 'npm run lint'], { include: ['src/**', 'docs/**'], token_budget: 5000 }]);
    assert.deepEqual([b.gates, b.context], [['npm test'], { include: ['src/**'] }]);
    assert.equal(cache.size, 3);
    // A broken parent read once still names the child that reached it, each time.
    for (const child of ['c', 'd']) {
      const error = await rejects(() => load(child), 'ROLE_YAML');
      assert.match(error.message, new RegExp(`parent of .*${child}\\.yaml: ${child} -> broken`));
    }
    const listed = await listRoles(env.opts);
    assert.deepEqual(listed.filter((r) => r.error && r.layer === 'repo').map((r) => r.name), ['broken', 'c', 'd']);
  });

  it('accepts .yml, and refuses a folder holding both x.yaml and x.yml', async () => {
    const env = await roleEnv({
      repo: { 'short.yml': { name: 'short', ...BASE }, 'twice.yaml': { name: 'twice', ...BASE }, 'twice.yml': { name: 'twice', ...BASE } },
    });
    assert.equal((await loadRole('short', env.opts)).file, join(env.repoRoles, 'short.yml'));
    await rejects(() => loadRole('twice', env.opts), 'ROLE_AMBIGUOUS');
    assert.equal((await listRoles(env.opts)).find((r) => r.name === 'twice')?.error?.code, 'ROLE_AMBIGUOUS');
  });

  it('lets a repository refine a built-in role under the same name by extending that name', async () => {
    const env = await roleEnv({
      repo: { 'reviewer.yaml': { name: 'reviewer', extends: 'reviewer', gates: ['npm test'], system_prompt_additions: 'We use tabs.' } },
    });
    const role = await loadRole('reviewer', env.opts);
    assert.equal(role.base_role, 'reviewer');
    assert.deepEqual(role.gates, ['npm test']);
    assert.match(role.system_prompt, /principal engineer[\s\S]*\n\nWe use tabs\.\n$/);
    assert.equal(role.sources.cli, join(PROJECT_ROOT, 'roles', 'reviewer.yaml'));
  });

  it('says which roles exist when a name is unknown, and refuses names that could escape the folders', async () => {
    const env = await roleEnv({ repo: { 'mine.yaml': { name: 'mine', ...BASE } } });
    const missing = await rejects(() => loadRole('nope', env.opts), 'ROLE_NOT_FOUND');
    assert.ok((missing.details.known as string[]).includes('mine'));
    assert.ok((missing.details.known as string[]).includes('reviewer'));
    await rejects(() => loadRole('../secrets', env.opts), 'ROLE_NAME');
  });

  it('loads a role file by path, finding its parents beside it first', async () => {
    const env = await roleEnv({ repo: { 'base.yaml': { name: 'base', ...BASE, description: 'repo base' } } });
    const dir = await tempDir('sv-loose-');
    await writeFile(join(dir, 'base.yaml'), `name: base\ndescription: beside\ncli: fixture-cli\nsystem_prompt: s\n`);
    await writeFile(join(dir, 'child.yaml'), 'name: child\nextends: base\n');
    await writeFile(join(dir, 'uses-builtin.yaml'), 'name: uses-builtin\nextends: planner\ncli: fixture-cli\ndescription: d\n');
    const child = await loadRoleFile(join(dir, 'child.yaml'), env.opts);
    assert.equal(child.description, 'beside');
    assert.equal(child.base_role, 'base');
    assert.equal((await loadRoleFile(join(dir, 'uses-builtin.yaml'), env.opts)).base_role, 'planner');
    await rejects(() => loadRoleFile(join(dir, 'absent.yaml'), env.opts), 'FILE_READ');
  });

  it(`accepts an extends chain of ${MAX_EXTENDS_DEPTH} roles and refuses one of ${MAX_EXTENDS_DEPTH + 1}`, async () => {
    const files: Record<string, unknown> = { 'l0.yaml': { name: 'l0', ...BASE } };
    for (let i = 1; i <= MAX_EXTENDS_DEPTH; i++) files[`l${i}.yaml`] = { name: `l${i}`, extends: `l${i - 1}` };
    const env = await roleEnv({ repo: files });
    assert.equal((await loadRole(`l${MAX_EXTENDS_DEPTH - 1}`, env.opts)).base_role, 'l0');
    const error = await rejects(() => loadRole(`l${MAX_EXTENDS_DEPTH}`, env.opts), 'ROLE_DEPTH');
    assert.equal((error.details.chain as string[]).length, MAX_EXTENDS_DEPTH);
  });

  it('detects cycles of length 1 and 3, naming the cycle', async () => {
    const env = await roleEnv({
      repo: {
        'me.yaml': { name: 'me', extends: 'me' },
        'a.yaml': { name: 'a', extends: 'b' },
        'b.yaml': { name: 'b', extends: 'c' },
        'c.yaml': { name: 'c', extends: 'a' },
        'x.yaml': { name: 'x', extends: 'a' },
      },
    });
    assert.deepEqual((await rejects(() => loadRole('me', env.opts), 'ROLE_CYCLE')).details.cycle, ['me', 'me']);
    assert.match((await rejects(() => loadRole('a', env.opts), 'ROLE_CYCLE')).message, /a -> b -> c -> a/);
    assert.match((await rejects(() => loadRole('x', env.opts), 'ROLE_CYCLE')).message, /a -> b -> c -> a/);
  });

  it('names the missing parent and the file that asked for it', async () => {
    const env = await roleEnv({ repo: { 'orphan.yaml': { name: 'orphan', extends: 'ghost' } } });
    const error = await rejects(() => loadRole('orphan', env.opts), 'ROLE_PARENT_MISSING');
    assert.equal(error.details.file, join(env.repoRoles, 'orphan.yaml'));
    assert.equal(error.details.parent, 'ghost');
  });
});

describe('files a role names', () => {
  it('resolves instructions relative to the role file that named them, parent first, and requires them to exist', async () => {
    const env = await roleEnv({
      home: { 'team.yaml': { name: 'team', ...BASE, instructions: ['rules/system.md'] } },
      repo: { 'mine.yaml': { name: 'mine', extends: 'team', instructions: ['local.md', '../../docs/shared.md'] } },
    });
    await mkdir(join(env.homeRoles, 'rules'), { recursive: true });
    await mkdir(join(env.repoRoot, 'docs'), { recursive: true });
    await writeFile(join(env.homeRoles, 'rules', 'system.md'), '# rules');
    await writeFile(join(env.repoRoles, 'local.md'), '# local');
    await writeFile(join(env.repoRoot, 'docs', 'shared.md'), '# shared');
    const role = await loadRole('mine', env.opts);
    assert.deepEqual(role.instructions, [join(env.homeRoles, 'rules', 'system.md'), join(env.repoRoles, 'local.md'), join(env.repoRoot, 'docs', 'shared.md')]);
    await writeFile(join(env.repoRoles, 'gone.yaml'), 'name: gone\nextends: team\ninstructions: [nowhere.md]\n');
    const error = await rejects(() => loadRole('gone', env.opts), 'ROLE_FILE_MISSING');
    assert.match(error.message, /"nowhere\.md" \(looked for .*nowhere\.md\)/);
  });

  it('refuses instruction and output schema paths that are absolute, lead out with .., or are symlinks out of the role folder and the repository', async () => {
    const outside = await tempDir('sv-outside-');
    await writeFile(join(outside, 'secret.md'), 'SECRET');
    const env = await roleEnv({
      repo: {
        'abs.yaml': { name: 'abs', ...BASE, instructions: [join(outside, 'secret.md')] },
        'home.yaml': { name: 'home', ...BASE, instructions: ['~/secret.md'] },
        'up.yaml': { name: 'up', ...BASE, output_schema: '../../../../../../../..' + join(outside, 'secret.json') },
        'link.yaml': { name: 'link', ...BASE, instructions: ['linked.md'] },
      },
    });
    await symlink(join(outside, 'secret.md'), join(env.repoRoles, 'linked.md'));
    for (const [name, why] of [['abs', /absolute/], ['home', /absolute/], ['up', /leads out/], ['link', /symlink out/]] as const) {
      const error = await rejects(() => loadRole(name, env.opts), 'ROLE_PATH_OUTSIDE');
      assert.match(error.message, why, name);
      assert.equal(error.details.file, join(env.repoRoles, `${name}.yaml`));
    }
  });

  it('keeps an output schema name, and resolves an output schema path relative to the role file', async () => {
    const env = await roleEnv({
      repo: { 'named.yaml': { name: 'named', ...BASE, output_schema: 'review' }, 'pathed.yaml': { name: 'pathed', ...BASE, output_schema: 'schemas/out.json' } },
    });
    await mkdir(join(env.repoRoles, 'schemas'), { recursive: true });
    await writeFile(join(env.repoRoles, 'schemas', 'out.json'), '{"type":"object"}');
    assert.equal((await loadRole('named', env.opts)).output_schema, 'review');
    assert.equal((await loadRole('pathed', env.opts)).output_schema, join(env.repoRoles, 'schemas', 'out.json'));
  });
});

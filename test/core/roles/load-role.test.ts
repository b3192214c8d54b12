/** Seed 000 Task 1's acceptance criteria, each as a test, plus the merge rules. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RoleViolation } from '../../../core/roles/errors.ts';
import { loadRole } from '../../../core/roles/load-role.ts';
import { BASE, rejects, roleEnv } from './helpers.ts';

function violations(error: { details: Record<string, unknown> }): RoleViolation[] {
  return error.details.violations as RoleViolation[];
}

describe('loadRole: seed 000 Task 1 acceptance criteria', () => {
  it('fails on invalid YAML with a message naming the file, line and column', async () => {
    const env = await roleEnv({ repo: { 'broken.yaml': 'name: broken\ndescription: [unclosed\ncli: x\n' } });
    const error = await rejects(() => loadRole('broken', env.opts), 'ROLE_YAML');
    assert.ok(error.message.includes(join(env.repoRoles, 'broken.yaml')), error.message);
    assert.match(error.message, /at line \d+, column \d+/);
    assert.equal(error.details.file, join(env.repoRoles, 'broken.yaml'));
  });

  it('catches required fields missing after the merge, naming the role file', async () => {
    const env = await roleEnv({
      repo: {
        'parent.yaml': { name: 'parent', description: 'No cli anywhere.', system_prompt: 'p' },
        'child.yaml': { name: 'child', extends: 'parent' },
      },
    });
    const error = await rejects(() => loadRole('child', env.opts), 'ROLE_INVALID');
    assert.deepEqual(violations(error).map((v) => [v.pointer, v.keyword, v.file]), [['/cli', 'required', join(env.repoRoles, 'child.yaml')]]);
  });

  it('rejects a cli that is not a registered adapter, and accepts it once registered', async () => {
    const env = await roleEnv({ repo: { 'r.yaml': { name: 'r', ...BASE, cli: 'aider' } } });
    const error = await rejects(() => loadRole('r', env.opts), 'ROLE_INVALID');
    assert.equal(violations(error)[0]!.pointer, '/cli');
    assert.match(violations(error)[0]!.message, /"aider" is not a registered adapter; registered: claude, fixture-cli/);
    const role = await loadRole('r', { ...env.opts, adapters: ['aider'] });
    assert.equal(role.cli, 'aider');
  });

  it('validates the merged inheritance chain, attributing each problem to the file that gave it', async () => {
    const env = await roleEnv({
      home: { 'a.yaml': { name: 'a', ...BASE, context: { token_budget: 500 } } },
      repo: {
        'b.yaml': { name: 'b', extends: 'a', description: 'Middle.', colour: 'red' },
        'c.yaml': { name: 'c', extends: 'b', description: 'Leaf.', cli: 'nope' },
      },
    });
    const error = await rejects(() => loadRole('c', env.opts), 'ROLE_INVALID');
    const got = violations(error).map((v) => [v.pointer, v.file]).sort();
    assert.deepEqual(got, [
      ['/cli', join(env.repoRoles, 'c.yaml')],
      ['/colour', join(env.repoRoles, 'b.yaml')],
      ['/context/token_budget', join(env.homeRoles, 'a.yaml')],
    ]);
    assert.match(error.message, /\/colour: unknown field "colour".*\[from .*b\.yaml\]/);
  });

  it('lets an overlay without system_prompt inherit it, or add to it with system_prompt_additions', async () => {
    const env = await roleEnv({
      repo: {
        'base.yaml': { name: 'base', ...BASE, system_prompt: 'Review carefully.\n' },
        'plain.yaml': { name: 'plain', extends: 'base', description: 'Inherits.' },
        'more.yaml': { name: 'more', extends: 'base', description: 'Adds.', system_prompt_additions: 'Also check tests.\n' },
        'own.yaml': { name: 'own', extends: 'base', description: 'Replaces.', system_prompt: 'Only this.', system_prompt_additions: 'And this.' },
      },
    });
    assert.equal((await loadRole('plain', env.opts)).system_prompt, 'Review carefully.\n');
    assert.equal((await loadRole('more', env.opts)).system_prompt, 'Review carefully.\n\nAlso check tests.\n');
    assert.equal((await loadRole('own', env.opts)).system_prompt, 'Only this.\n\nAnd this.\n');
  });

  it('rejects unknown top-level fields, but lets context and config carry role-specific keys', async () => {
    const env = await roleEnv({
      repo: {
        'typo.yaml': { name: 'typo', ...BASE, gate: ['npm test'] },
        'custom.yaml': { name: 'custom', ...BASE, context: { $TARGET_IMPORTS: true, depth: 2 }, config: { tdd: true, lint: 'strict' } },
      },
    });
    const error = await rejects(() => loadRole('typo', env.opts), 'ROLE_INVALID');
    assert.deepEqual(violations(error).map((v) => [v.pointer, v.keyword]), [['/gate', 'additionalProperties']]);
    assert.match(error.message, /did you mean "gates"/);
    const role = await loadRole('custom', env.opts);
    assert.equal(role.context.depth, 2);
    assert.equal(role.config.lint, 'strict');
  });

  it('accepts x- extension fields, inherits them, and lets a child override them', async () => {
    const env = await roleEnv({
      repo: {
        'p.yaml': { name: 'p', ...BASE, 'x-model': 'opus', 'x-tags': ['a'] },
        'q.yaml': { name: 'q', extends: 'p', description: 'Child.', 'x-model': 'sonnet', 'x-tags': ['b'], 'x-owner': { team: 'core' } },
      },
    });
    const role = await loadRole('q', env.opts);
    assert.deepEqual(role.extensions, { 'x-model': 'sonnet', 'x-tags': ['a', 'b'], 'x-owner': { team: 'core' } });
    assert.equal(role.sources['x-model'], join(env.repoRoles, 'q.yaml'));
  });

  it('sets base_role to the root of the chain at any depth, and null for a base role', async () => {
    const env = await roleEnv({
      repo: {
        'root.yaml': { name: 'root', ...BASE },
        'one.yaml': { name: 'one', extends: 'root', description: '1' },
        'two.yaml': { name: 'two', extends: 'one', description: '2' },
        'three.yaml': { name: 'three', extends: 'two', description: '3' },
      },
    });
    assert.equal((await loadRole('root', env.opts)).base_role, null);
    assert.equal((await loadRole('one', env.opts)).base_role, 'root');
    const three = await loadRole('three', env.opts);
    assert.equal(three.base_role, 'root');
    assert.equal(three.extends, 'two');
  });
});

describe('loadRole: merge rules', () => {
  it('replaces scalars, merges mappings key by key, appends lists, and records which file gave each field', async () => {
    const env = await roleEnv({
      repo: {
        'p.yaml': {
          name: 'p', ...BASE, flags: ['--model', 'x'], gates: ['npm test'],
          context: { include: ['src/**'], exclude: ['dist/**'], token_budget: 20000, git_diff: false },
          config: { max_retries: 3, timeout: 300 },
        },
        'c.yaml': {
          name: 'c', extends: 'p', description: 'Child.', cli: 'claude', flags: ['--model', 'y'], gates: ['npm test', 'npm run lint'],
          context: { include: ['src/**', 'docs/**'], git_diff: true }, config: { timeout: 600 },
        },
      },
    });
    const role = await loadRole('c', env.opts);
    assert.equal(role.cli, 'claude');
    assert.deepEqual(role.flags, ['--model', 'x', '--model', 'y']);
    assert.deepEqual(role.gates, ['npm test', 'npm run lint']);
    assert.deepEqual(role.context, { include: ['src/**', 'docs/**'], exclude: ['dist/**'], token_budget: 20000, git_diff: true });
    assert.deepEqual(role.config, { max_retries: 3, timeout: 600 });
    const p = join(env.repoRoles, 'p.yaml');
    const c = join(env.repoRoles, 'c.yaml');
    assert.deepEqual(role.sources, {
      name: c, description: c, cli: c, system_prompt: p, flags: c, gates: c, context: c, config: c, extends: c,
    });
    assert.equal(role.file, c);
  });

  it('names a role after its file: a name left out is the file name, never the parent\'s', async () => {
    const env = await roleEnv({
      repo: {
        'p.yaml': { name: 'p', ...BASE },
        'anon.yaml': { extends: 'p', description: 'No name of its own.' },
        'wrong.yaml': { name: 'p', extends: 'p', description: 'Copied the parent name.' },
      },
    });
    const role = await loadRole('anon', env.opts);
    assert.equal(role.name, 'anon');
    assert.equal(role.sources.name, join(env.repoRoles, 'anon.yaml'));
    const error = await rejects(() => loadRole('wrong', env.opts), 'ROLE_INVALID');
    assert.match(error.message, /\/name: "p" does not match the file name; .* name: wrong/);
  });

  it('reports every violation at once, each with its JSON pointer', async () => {
    const env = await roleEnv({
      repo: {
        'many.yaml': {
          name: 'many', description: '', cli: 'fixture-cli', system_prompt: 'x', flags: ['ok', 3],
          context: { token_budget: 100001, git_diff: 'yes' }, config: { max_retries: 11, timeout: 0.5, coverage_target: -1, max_turns: 0 },
        },
      },
    });
    const error = await rejects(() => loadRole('many', env.opts), 'ROLE_INVALID');
    assert.deepEqual(violations(error).map((v) => v.pointer).sort(), [
      '/config/coverage_target', '/config/max_retries', '/config/max_turns', '/config/timeout',
      '/context/git_diff', '/context/token_budget', '/description', '/flags/1',
    ]);
  });

  for (const [field, ok, bad] of [
    ['context.token_budget', [1000, 100000], [999, 100001, 2000.5]],
    ['config.max_retries', [0, 10], [-1, 11, 1.5]],
    ['config.timeout', [1, 2.5, 86400], [0.0001, 0, 86401, 2200000]],
    ['config.gate_timeout', [1, 86400], [0.5, 86401]],
    ['config.coverage_target', [0, 100], [-1, 101]],
    ['config.max_cost_usd', [0.01, 25], [0, -1]],
  ] as const) {
    it(`checks the range of ${field}`, async () => {
      const [group, key] = field.split('.') as ['context' | 'config', string];
      const files = Object.fromEntries(
        [...ok, ...bad].map((value, i) => [`r${i}.yaml`, { name: `r${i}`, ...BASE, [group]: { [key]: value } }]),
      );
      const env = await roleEnv({ repo: files });
      for (let i = 0; i < ok.length; i++) assert.equal((await loadRole(`r${i}`, env.opts))[group][key], ok[i]);
      for (let i = ok.length; i < ok.length + bad.length; i++) {
        const error = await rejects(() => loadRole(`r${i}`, env.opts), 'ROLE_INVALID');
        assert.equal(violations(error)[0]!.pointer, `/${group}/${key}`);
      }
    });
  }

  it('limits parser and context.packers to the registered plugins when their names are given', async () => {
    const env = await roleEnv({ repo: { 'r.yaml': { name: 'r', ...BASE, parser: 'v2-headers', context: { packers: ['glob', 'repomix'] } } } });
    assert.equal((await loadRole('r', env.opts)).parser, 'v2-headers');
    const error = await rejects(() => loadRole('r', { ...env.opts, parsers: ['fenced-json'], packers: ['glob'] }), 'ROLE_INVALID');
    assert.deepEqual(violations(error).map((v) => v.pointer).sort(), ['/context/packers/1', '/parser']);
  });
});

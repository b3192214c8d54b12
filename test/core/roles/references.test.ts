/**
 * What a role names beyond its own file, checked when asked (checkReferences, as the `roles`
 * commands do): the template must exist, and an output schema file must load as a JSON Schema.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RoleViolation } from '../../../core/roles/errors.ts';
import { listRoles, loadRole } from '../../../core/roles/load-role.ts';
import { BASE, rejects, roleEnv } from './helpers.ts';

function violations(error: { details: Record<string, unknown> }): RoleViolation[] {
  return error.details.violations as RoleViolation[];
}

describe('role references', () => {
  it('accepts a built-in template and one from <repo>/.supervisor/prompts', async () => {
    const env = await roleEnv({
      repo: { 'a.yaml': { name: 'a', ...BASE, template: 'planning' }, 'b.yaml': { name: 'b', ...BASE, template: 'house' } },
      other: { [join('.supervisor', 'prompts', 'house.eta')]: '<%= it.task %>\n' },
    });
    const opts = { ...env.opts, checkReferences: true };
    assert.equal((await loadRole('a', opts)).template, 'planning');
    assert.equal((await loadRole('b', opts)).template, 'house');
  });

  it('reports an unknown template at /template, naming the file that gave it', async () => {
    const env = await roleEnv({
      repo: { 'parent.yaml': { name: 'parent', ...BASE, template: 'plannnig' }, 'child.yaml': { name: 'child', extends: 'parent' } },
    });
    const error = await rejects(() => loadRole('child', { ...env.opts, checkReferences: true }), 'ROLE_INVALID');
    const [v] = violations(error);
    assert.deepEqual([v?.pointer, v?.keyword, v?.file], ['/template', 'template', join(env.repoRoles, 'parent.yaml')]);
    assert.match(v!.message, /no template named "plannnig".*\.supervisor\/prompts\/plannnig\.eta; did you mean "planning"\?/);
    // Without checkReferences a run meets it later, as TEMPLATE_NOT_ALLOWED from the prompt layer.
    assert.equal((await loadRole('child', env.opts)).template, 'plannnig');
  });

  it('reports an output schema file that is not JSON, or not an object, at /output_schema', async () => {
    const env = await roleEnv({
      repo: {
        'good.yaml': { name: 'good', ...BASE, output_schema: 'schemas/good.json' },
        'broken.yaml': { name: 'broken', ...BASE, output_schema: 'schemas/broken.json' },
        'list.yaml': { name: 'list', ...BASE, output_schema: 'schemas/list.json' },
      },
      other: {
        [join('.supervisor', 'roles', 'schemas', 'good.json')]: '{"type": "object", "required": ["ok"]}',
        [join('.supervisor', 'roles', 'schemas', 'broken.json')]: '{"type": "object",',
        [join('.supervisor', 'roles', 'schemas', 'list.json')]: '[]',
      },
    });
    const opts = { ...env.opts, checkReferences: true };
    assert.equal((await loadRole('good', opts)).output_schema, join(env.repoRoles, 'schemas', 'good.json'));
    for (const [name, problem] of [['broken', /not valid JSON/], ['list', /the top level must be a JSON object/]] as const) {
      const [v, ...more] = violations(await rejects(() => loadRole(name, opts), 'ROLE_INVALID'));
      assert.deepEqual(more, []);
      assert.deepEqual([v?.pointer, v?.file], ['/output_schema', join(env.repoRoles, `${name}.yaml`)]);
      assert.match(v!.message, /^does not load as a JSON Schema: /);
      assert.match(v!.message, problem);
    }
  });

  it('listRoles with checkReferences marks such roles invalid', async () => {
    const env = await roleEnv({ repo: { 'odd.yaml': { name: 'odd', ...BASE, template: 'nothing-here' } } });
    const odd = (await listRoles({ ...env.opts, checkReferences: true })).find((r) => r.name === 'odd');
    assert.equal(odd?.error?.code, 'ROLE_INVALID');
    assert.equal((await listRoles(env.opts)).find((r) => r.name === 'odd')?.error, null);
  });
});

/** The built-in roles: all valid, with the context, schema and parser each one's job needs. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { listAssets, readAsset } from '../../../core/assets.ts';
import { listRoles, loadRole } from '../../../core/roles/load-role.ts';
import type { Role } from '../../../core/roles/role.ts';
import { roleEnv } from './helpers.ts';

// The adapter names the design gives the built-in adapters, given explicitly so these tests do
// not depend on which adapter plugins are registered.
const ADAPTERS = ['claude', 'codex', 'gemini', 'cline', 'replay'];
const BUILTINS = ['planner', 'implementer', 'reviewer', 'reviewer-security', 'worker', 'spec-reviewer', 'code-quality-reviewer', 'oneshot'];

async function builtin(name: string): Promise<Role> {
  const env = await roleEnv({}, ADAPTERS);
  return loadRole(name, env.opts);
}

describe('built-in roles', () => {
  it('are all present and valid', async () => {
    const env = await roleEnv({}, ADAPTERS);
    const listed = await listRoles(env.opts);
    assert.deepEqual(listed.map((r) => r.name).sort(), [...BUILTINS].sort());
    for (const role of listed) {
      assert.equal(role.error, null, `${role.name}: ${role.error?.message}`);
      assert.equal(role.layer, 'builtin');
    }
  });

  it('name output schemas that exist in schemas/', async () => {
    const schemas = listAssets('schemas').map((a) => a.slice('schemas/'.length));
    for (const name of BUILTINS) {
      const role = await builtin(name);
      assert.ok(role.output_schema, `${name} names an output schema`);
      assert.ok(schemas.includes(`${role.output_schema}.json`), `${name}: schemas/${role.output_schema}.json exists`);
    }
  });

  it('give the base roles the seed 000 output schemas and substantial prompts', async () => {
    const expected = { planner: 'plan', implementer: 'implementation', reviewer: 'review' };
    for (const [name, schema] of Object.entries(expected)) {
      const role = await builtin(name);
      assert.equal(role.base_role, null);
      assert.equal(role.output_schema, schema);
      assert.ok(role.system_prompt.length > 1200, `${name}: a real system prompt`);
      assert.ok(role.config.timeout! >= 300 && role.config.max_retries! >= 1);
    }
  });

  it('give the reviewer the staged diff and the changed files, and the implementer its targets', async () => {
    const reviewer = await builtin('reviewer');
    assert.equal(reviewer.context.git_diff, true);
    assert.ok(reviewer.context.include!.includes('$CHANGED_FILES'));
    assert.equal(reviewer.context.priority_order![0], 'git_diff');
    const implementer = await builtin('implementer');
    assert.ok(implementer.context.include!.includes('$TARGET'));
    assert.equal(implementer.context.priority_order![0], 'target_file');
  });

  it('make reviewer-security an overlay of reviewer that inherits its prompt and adds to it', async () => {
    const [reviewer, security] = await Promise.all([builtin('reviewer'), builtin('reviewer-security')]);
    assert.equal(security.extends, 'reviewer');
    assert.equal(security.base_role, 'reviewer');
    assert.ok(security.system_prompt.startsWith(reviewer.system_prompt.trimEnd()));
    assert.match(security.system_prompt, /Security focus/);
    assert.equal(security.output_schema, 'review');
    assert.ok(security.context.include!.includes('$CHANGED_FILES') && security.context.include!.includes('SECURITY.md'));
    assert.ok(readAsset('roles/reviewer-security.yaml')!.content.includes('# An overlay names a parent'));
  });

  it('make the v2 roles base roles with the v2-headers parser, the v2-result schema and the header contract in the prompt', async () => {
    for (const name of ['worker', 'spec-reviewer', 'code-quality-reviewer']) {
      const role = await builtin(name);
      assert.equal(role.base_role, null, `${name} is a base role`);
      assert.equal(role.parser, 'v2-headers');
      assert.equal(role.output_schema, 'v2-result');
      assert.match(role.system_prompt, new RegExp(`^role: ${name}$`, 'm'));
      assert.match(role.system_prompt, /^status: pass\|gaps\|error$/m);
    }
    // The engine commits and records the range: the worker is not asked to commit or compute it.
    const worker = (await builtin('worker')).system_prompt;
    assert.doesNotMatch(worker, /^git_range: /m);
    assert.doesNotMatch(worker, /git (add|commit)|rev-parse/);
    assert.match(worker, /supervisor commits everything you changed/);
    assert.equal((await builtin('spec-reviewer')).context.git_diff, true);
  });

  it('hand the oneshot role the built-in system.md (seed 004) as an instruction file', async () => {
    const role = await builtin('oneshot');
    assert.equal(role.output_schema, 'llm-chat');
    assert.equal(role.instructions.length, 1);
    assert.equal(role.instructions[0], readAsset('roles/system.md')!.displayPath);
    const text = readFileSync(role.instructions[0]!, 'utf8');
    for (const field of ['action', 'evidence_files', 'summary_for_supervisor', 'job_manifest_url', 'COMPLETED', 'STUCK', 'RETRY', '```json']) {
      assert.ok(text.includes(field), `system.md mentions ${field}`);
    }
  });
});

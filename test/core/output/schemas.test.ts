import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readAsset } from '../../../core/assets.ts';
import { validateJson } from '../../../core/json-schema.ts';
import { exampleFromSchema } from '../../../core/plugin-api/index.ts';
import { listOutputSchemas, loadOutputSchema, resolveOutputSchema } from '../../../core/output/schemas.ts';
import { validateOutput } from '../../../core/output/validate-output.ts';
import { loadRole } from '../../../core/roles/load-role.ts';
import { makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { thrownCode } from '../../helpers/thrown-code.ts';

const BUILTINS = ['generic', 'implementation', 'llm-chat', 'plan', 'review', 'v2-result'];
const role = (name: string, base_role: string | null = null, output_schema: string | null = null) => ({ name, base_role, output_schema, file: '' });

type Json = { type?: unknown; properties?: Record<string, Json>; items?: Json; description?: unknown; $schema?: string };
function walkProperties(schema: Json, path: string, visit: (path: string, prop: Json) => void): void {
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    visit(`${path}/${key}`, prop);
    walkProperties(prop, `${path}/${key}`, visit);
    if (prop.items) walkProperties(prop.items, `${path}/${key}/items`, visit);
  }
}

describe('output schemas', () => {
  it('lists the built-in output schemas, not the role config schema', () => {
    assert.deepEqual(listOutputSchemas().filter((n) => BUILTINS.includes(n)).sort(), BUILTINS);
    assert.ok(!listOutputSchemas().some((n) => n.includes('role')), 'role.schema.json is a config schema');
  });

  it('every built-in is draft-07, describes an object, and describes every property for the prompt', () => {
    for (const name of BUILTINS) {
      const { schema, file } = loadOutputSchema(name, { baseDir: '/' });
      assert.equal((schema as Json).$schema, 'http://json-schema.org/draft-07/schema#', name);
      assert.equal((schema as Json).type, 'object', name);
      assert.equal(file, readAsset(`schemas/${name}.json`)!.displayPath);
      walkProperties(schema as Json, name, (path, prop) => {
        assert.equal(typeof prop.description, 'string', `${path} has a description`);
        assert.ok((prop.description as string).length > 3, path);
      });
    }
  });

  it("the example built from each built-in schema validates against it (what the prompt shows the model)", () => {
    for (const name of BUILTINS) {
      const schema = loadOutputSchema(name, { baseDir: '/' });
      const outcome = validateJson(schema.schema, exampleFromSchema(schema.schema), { defaults: true });
      assert.deepEqual(outcome.violations, [], name);
    }
  });

  it('the example resolves local $refs against the root schema, and stops at a cycle', () => {
    const schema = {
      type: 'object',
      required: ['status', 'findings', 'owner'],
      properties: {
        status: { $ref: '#/$defs/status' },
        findings: { type: 'array', minItems: 1, items: { $ref: '#/definitions/finding' } },
        owner: { $ref: '#/$defs/person' },
      },
      $defs: { status: { enum: ['OK', 'NOT_OK'] }, person: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, manager: { $ref: '#/$defs/person' } } } },
      definitions: { finding: { type: 'object', required: ['line'], properties: { line: { type: 'integer', minimum: 1 } } } },
    };
    const example = exampleFromSchema(schema);
    assert.deepEqual(validateJson(schema, example).violations, []);
    assert.deepEqual(example, { status: 'OK', findings: [{ line: 1 }], owner: { name: '<name>' } });
    const tree = { type: 'object', properties: { label: { type: 'string' }, child: { $ref: '#' } } };
    assert.deepEqual(exampleFromSchema(tree), { label: '<label>', child: { label: '<label>' } });
  });

  it('resolves a role: its own schema, else by name, else by base_role, else generic', () => {
    assert.equal(resolveOutputSchema(role('planner')).name, 'plan');
    assert.equal(resolveOutputSchema(role('implementer')).name, 'implementation');
    assert.equal(resolveOutputSchema(role('reviewer')).name, 'review');
    assert.equal(resolveOutputSchema(role('worker')).name, 'v2-result');
    assert.equal(resolveOutputSchema(role('spec-reviewer')).name, 'v2-result');
    assert.equal(resolveOutputSchema(role('code-quality-reviewer')).name, 'v2-result');
    assert.equal(resolveOutputSchema(role('reviewer-security', 'reviewer')).name, 'review', 'overlay → base_role');
    assert.equal(resolveOutputSchema(role('implementer', 'planner')).name, 'implementation', 'name before base_role');
    assert.equal(resolveOutputSchema(role('reviewer', null, 'llm-chat')).name, 'llm-chat', "the role's own first");
    assert.equal(resolveOutputSchema(role('my-custom-role')).name, 'generic', 'unknown role → generic');
    assert.equal(resolveOutputSchema(role('overlay', 'my-custom-base')).name, 'generic', 'unknown base → generic');
  });

  it("loads a role's own schema file by absolute path, and a relative path against baseDir or the role file", async () => {
    const dir = await tempDir();
    const file = join(dir, 'answer.json');
    await writeFile(file, JSON.stringify({ type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } }));
    const own = resolveOutputSchema(role('custom', null, file));
    assert.deepEqual({ name: own.name, file: own.file }, { name: 'answer', file });
    assert.equal(loadOutputSchema('answer.json', { baseDir: dir }).file, file);
    assert.equal(loadOutputSchema('./answer.json', { baseDir: dir }).file, file);
    assert.equal(resolveOutputSchema({ ...role('custom', null, 'answer.json'), file: join(dir, 'custom.yaml') }).file, file);
    // Not against the process's current folder: a role without a file needs an absolute path.
    assert.equal(thrownCode(() => resolveOutputSchema(role('custom', null, 'answer.json'))), 'OUTPUT_SCHEMA_INVALID');
  });

  it("a loaded role with no schema of its own gets its name's, else its base role's (real roles, real resolution)", async () => {
    const repo = await makeRepo({
      '.supervisor/roles/planner.yaml': 'name: planner\ndescription: Our planner\ncli: claude\nsystem_prompt: Plan.\n',
      '.supervisor/roles/reviewer.yaml': 'name: reviewer\ndescription: Our reviewer\ncli: claude\nsystem_prompt: Review.\n',
      '.supervisor/roles/strict.yaml': 'name: strict\nextends: reviewer\ndescription: Stricter\n',
      '.supervisor/roles/triage.yaml': 'name: triage\ndescription: Sorts\ncli: claude\nsystem_prompt: Sort.\n',
    });
    const load = (name: string) => loadRole(name, { repoRoot: repo, homeDir: repo, adapters: ['claude'] });
    const resolved = async (name: string) => {
      const loaded = await load(name);
      assert.equal(loaded.output_schema, null, name);
      return resolveOutputSchema(loaded).name;
    };
    assert.deepEqual([await resolved('planner'), await resolved('strict'), await resolved('triage')], ['plan', 'review', 'generic']);
    assert.equal((await load('strict')).base_role, 'reviewer');
  });

  it('refuses unknown names, unreadable files, invalid JSON and schemas that do not describe an object', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'broken.json'), '{ "type": ');
    await writeFile(join(dir, 'array.json'), '{ "type": "array" }');
    await writeFile(join(dir, 'list.json'), '[]');
    assert.equal(thrownCode(() => loadOutputSchema('nope', { baseDir: dir })), 'OUTPUT_SCHEMA_NOT_FOUND');
    assert.equal(thrownCode(() => loadOutputSchema('role.schema', { baseDir: dir })), 'OUTPUT_SCHEMA_NOT_FOUND');
    assert.equal(thrownCode(() => resolveOutputSchema(role('x', null, 'nope'))), 'OUTPUT_SCHEMA_NOT_FOUND');
    assert.equal(thrownCode(() => loadOutputSchema('missing.json', { baseDir: dir })), 'FILE_READ');
    assert.equal(thrownCode(() => loadOutputSchema('broken.json', { baseDir: dir })), 'OUTPUT_SCHEMA_INVALID');
    assert.equal(thrownCode(() => loadOutputSchema('array.json', { baseDir: dir })), 'OUTPUT_SCHEMA_INVALID');
    assert.equal(thrownCode(() => loadOutputSchema('list.json', { baseDir: dir })), 'OUTPUT_SCHEMA_INVALID');
  });
});

describe('validating answers against the built-in schemas', () => {
  const schema = (name: string) => loadOutputSchema(name, { baseDir: '/' });
  const violations = (name: string, value: unknown) => {
    try {
      validateOutput(schema(name), value);
      return [];
    } catch (error) {
      assert.equal((error as { code?: string }).code, 'OUTPUT_INVALID');
      return ((error as { details: { violations: { pointer: string }[] } }).details.violations).map((v) => v.pointer).sort();
    }
  };

  it('generic accepts any object, defaults status to UNKNOWN, and rejects arrays and scalars', () => {
    assert.deepEqual(validateOutput(schema('generic'), { anything: [1, 2], nested: { a: 1 } }), { anything: [1, 2], nested: { a: 1 }, status: 'UNKNOWN' });
    assert.equal(validateOutput(schema('generic'), { status: 'DONE' }).status, 'DONE');
    for (const value of [[], [{ status: 'x' }], 'text', 42, true, null]) assert.deepEqual(violations('generic', value), [''], JSON.stringify(value));
    assert.deepEqual(violations('generic', { status: 5 }), ['/status']);
  });

  it('plan, implementation and review apply their defaults', () => {
    assert.deepEqual(validateOutput(schema('implementation'), { status: 'SUCCESS', action_taken: 'x' }), {
      status: 'SUCCESS', action_taken: 'x', files_created: [], files_modified: [], tests_written: [], blockers: [], next_step: null,
    });
    assert.deepEqual(validateOutput(schema('plan'), { status: 'COMPLETE', phases: [{ name: 'a' }], estimated_components: 2 }), {
      status: 'COMPLETE', phases: [{ name: 'a' }], estimated_components: 2, dependencies: [], risks: [], next_step: null,
    });
    assert.deepEqual(validateOutput(schema('review'), { status: 'APPROVED', review_status: 'APPROVED' }), {
      status: 'APPROVED', review_status: 'APPROVED', issues: [], suggestions: [], security_concerns: [], next_step: null,
    });
  });

  it('reports every violation with its JSON pointer', () => {
    assert.deepEqual(violations('plan', { status: 'DONE', phases: 'x', estimated_components: 1.5, extra: 1 }), ['/estimated_components', '/extra', '/phases', '/status']);
    assert.deepEqual(violations('implementation', {}), ['/action_taken', '/status']);
    assert.deepEqual(violations('review', { status: 'APPROVED', review_status: 'LGTM', issues: [{ severity: 'bad' }] }), ['/issues/0/description', '/issues/0/severity', '/review_status']);
    assert.deepEqual(violations('review', { status: 'APPROVED', review_status: 'APPROVED', issues: [{ severity: 'minor', description: 'd', line: 0 }] }), ['/issues/0/line']);
  });

  it('llm-chat: action, evidence_files and summary required; job_manifest_url optional, a file:// URI', () => {
    const ok = { action: 'COMPLETED', evidence_files: ['src/main.py'], summary_for_supervisor: 'Done.' };
    assert.deepEqual(validateOutput(schema('llm-chat'), ok), ok);
    assert.deepEqual(validateOutput(schema('llm-chat'), { ...ok, job_manifest_url: 'file:///w/job_manifest.json' }).job_manifest_url, 'file:///w/job_manifest.json');
    for (const action of ['COMPLETED', 'STUCK', 'RETRY']) assert.deepEqual(violations('llm-chat', { ...ok, action }), []);
    assert.deepEqual(violations('llm-chat', { ...ok, action: 'DONE' }), ['/action']);
    assert.deepEqual(violations('llm-chat', { action: 'STUCK' }), ['/evidence_files', '/summary_for_supervisor']);
    assert.deepEqual(violations('llm-chat', { ...ok, job_manifest_url: 'https://x/y' }), ['/job_manifest_url']);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { definePlugin, SupervisorError } from '../../../core/plugin-api/index.ts';
import { parseOutput } from '../../../core/output/parse-output.ts';
import { loadOutputSchema, resolveOutputSchema } from '../../../core/output/schemas.ts';
import { validateOutput } from '../../../core/output/validate-output.ts';
import { parserRegistry } from './_registry.ts';

const registry = parserRegistry();
const schema = (name: string) => loadOutputSchema(name, { baseDir: '/' });

function parseError(fn: () => unknown): SupervisorError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof SupervisorError, `a SupervisorError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected an error');
}

// Seed 000, "Testing Strategy" → tests/test_parser.py, ported. The seed's strings sit inside
// indented Python code; here they are dedented, since a fence indented 4 spaces is not a
// fence. Its sample answers omit action_taken, which its own ImplementationOutput requires,
// so the ported answers include it (and the last test shows the omission is caught).
describe('seed 000 Task 3: structured output parsing', () => {
  it('test_extract_json_from_markdown: a JSON block in markdown is extracted', () => {
    const output = `
Here's my analysis:

\`\`\`json
{"status": "SUCCESS", "action_taken": "Added foo", "files_created": ["foo.py"]}
\`\`\`
`;
    const result = parseOutput(output, { registry, schema: schema('implementation') });
    assert.equal(result.status, 'SUCCESS');
    assert.deepEqual(result.files_created, ['foo.py']);
  });

  it('test_last_json_block_used: when there are several JSON blocks, the last one is used', () => {
    const output = `
First attempt (wrong):
\`\`\`json
{"status": "FAILED"}
\`\`\`

Fixed version:
\`\`\`json
{"status": "SUCCESS", "action_taken": "fixed", "files_created": []}
\`\`\`
`;
    const result = parseOutput(output, { registry, schema: schema('implementation') });
    assert.equal(result.status, 'SUCCESS');
  });

  it('test_no_marker_fallback: magic strings like APPROVED are not parsed', () => {
    const output = 'REVIEW_STATUS: APPROVED\n\nLooks good!';
    const error = parseError(() => parseOutput(output, { registry, schema: schema('review') }));
    assert.equal(error.code, 'PARSE_NO_JSON');
    assert.match(error.message, /No ```json block found/);
    assert.equal(error.exitCode, 3);
  });

  it('no bare-JSON fallback either: a JSON object outside a ```json fence is not an answer', () => {
    for (const output of [
      '{"status": "APPROVED", "review_status": "APPROVED"}',
      'Result:\n{"status": "APPROVED", "review_status": "APPROVED"}\n',
      '```\n{"status": "APPROVED", "review_status": "APPROVED"}\n```',
      '```javascript\n{"status": "APPROVED", "review_status": "APPROVED"}\n```',
      'Inline ```json {"status": "APPROVED", "review_status": "APPROVED"}``` is a code span',
    ]) {
      assert.equal(parseError(() => parseOutput(output, { registry, schema: schema('review') })).code, 'PARSE_NO_JSON', output);
    }
  });

  it('schema validation catches missing and invalid fields, listing each with its JSON pointer', () => {
    const missing = parseError(() => parseOutput('```json\n{"status": "SUCCESS", "files_created": ["foo.py"]}\n```', { registry, schema: schema('implementation') }));
    assert.equal(missing.code, 'OUTPUT_INVALID');
    assert.equal(missing.exitCode, 3);
    assert.deepEqual((missing.details.violations as { pointer: string }[]).map((v) => v.pointer), ['/action_taken']);
    assert.match(missing.message, /implementation schema: \/action_taken: missing/);

    const invalid = parseError(() =>
      parseOutput('```json\n{"status": "DONE", "action_taken": 7, "files_created": "foo.py"}\n```', { registry, schema: schema('implementation') }),
    );
    assert.deepEqual((invalid.details.violations as { pointer: string }[]).map((v) => v.pointer).sort(), ['/action_taken', '/files_created', '/status']);
    assert.equal(invalid.details.schema, 'implementation');
  });

  it('unknown roles validate through generic: any object passes with status UNKNOWN, arrays do not', () => {
    const generic = resolveOutputSchema({ name: 'my-overlay-role', base_role: null, output_schema: null, file: '' });
    assert.deepEqual(parseOutput('```json\n{"verdict": "ok"}\n```', { registry, schema: generic }), { verdict: 'ok', status: 'UNKNOWN' });
    assert.equal(parseError(() => parseOutput('```json\n[1, 2]\n```', { registry, schema: generic })).code, 'OUTPUT_INVALID');
    assert.equal(parseError(() => parseOutput('```json\n"text"\n```', { registry, schema: generic })).code, 'OUTPUT_INVALID');
    assert.equal(parseError(() => parseOutput('no json', { registry, schema: generic })).code, 'PARSE_NO_JSON');
  });
});

describe('parseOutput', () => {
  it('uses the parser the caller names, from the registry', () => {
    const result = parseOutput('role: spec-reviewer\ntask_id: t-1\nstatus: pass\n\nSpec compliant.', {
      registry,
      parser: 'v2-headers',
      schema: schema('v2-result'),
    });
    assert.equal(result.grammar, 'v2');
    assert.equal(parseError(() => parseOutput('x', { registry, parser: 'nope', schema: schema('generic') })).code, 'PLUGIN_NOT_FOUND');
  });

  it("hands a user parser the schema, role, legacy flag and a validate() that applies defaults and throws OUTPUT_INVALID", () => {
    let seen: Record<string, unknown> = {};
    const spy = definePlugin({
      kind: 'parser',
      name: 'spy',
      parse(text, ctx) {
        seen = { schemaName: ctx.schemaName, role: ctx.role, legacy: ctx.legacy, hasSchema: typeof ctx.schema === 'object' };
        assert.equal(parseError(() => ctx.validate({ status: 'NOPE' })).code, 'OUTPUT_INVALID');
        return ctx.validate({ status: 'APPROVED', review_status: 'APPROVED', issues: [{ severity: 'info', description: text }] });
      },
    });
    const result = parseOutput('hello', { registry: parserRegistry(spy), parser: 'spy', schema: schema('review'), role: { name: 'reviewer', baseRole: null }, legacy: true });
    assert.deepEqual(seen, { schemaName: 'review', role: { name: 'reviewer', baseRole: null }, legacy: true, hasSchema: true });
    assert.deepEqual(result.suggestions, [], 'defaults applied');
  });

  it("wraps a parser's own crash (not a SupervisorError) once as PLUGIN_HOOK naming it", () => {
    const crash = definePlugin({ kind: 'parser', name: 'crash', parse: () => { throw new TypeError('boom'); } });
    const error = parseError(() => parseOutput('x', { registry: parserRegistry(crash), parser: 'crash', schema: schema('generic') }));
    assert.equal(error.code, 'PLUGIN_HOOK');
    assert.deepEqual(error.details, { plugin: 'crash', hook: 'parse' });
    assert.ok(error.cause instanceof TypeError);
  });

  it('validates whatever a user parser returns, so the result is always schema-valid', () => {
    const sloppy = definePlugin({ kind: 'parser', name: 'sloppy', parse: () => ({ status: 'MAYBE' }) as Record<string, unknown> });
    const error = parseError(() => parseOutput('x', { registry: parserRegistry(sloppy), parser: 'sloppy', schema: schema('review') }));
    assert.equal(error.code, 'OUTPUT_INVALID');
    const arrays = definePlugin({ kind: 'parser', name: 'arrays', parse: () => [] as unknown as Record<string, unknown> });
    assert.equal(parseError(() => parseOutput('x', { registry: parserRegistry(arrays), parser: 'arrays', schema: loadOutputSchema('generic', { baseDir: '/' }) })).code, 'OUTPUT_INVALID');
    const promise = definePlugin({ kind: 'parser', name: 'async', parse: (async () => ({})) as never });
    assert.equal(parseError(() => parseOutput('x', { registry: parserRegistry(promise), parser: 'async', schema: schema('generic') })).code, 'PLUGIN_HOOK');
  });

  it('a non-object answer is refused even when the schema allows anything', () => {
    const anything = { name: 'anything', schema: {}, file: '/x/anything.json' };
    const error = parseError(() => parseOutput('```json\n[1]\n```', { registry, schema: anything }));
    assert.equal(error.code, 'OUTPUT_INVALID');
    assert.match(error.message, /must be a JSON object, not an array/);
  });

  it('turns a validator crash on a hostile value into OUTPUT_INVALID (found by the fuzz test)', () => {
    const uri = { name: 'uri', file: '/x/uri.json', schema: { type: 'object', properties: { u: { type: 'string', format: 'uri' } } } };
    assert.equal(parseError(() => validateOutput(uri, { u: 'http://x/\ud800' })).code, 'OUTPUT_INVALID');
    const tree = { name: 'tree', file: '/x/tree.json', schema: { type: 'object', properties: { t: { $ref: '#/definitions/t' } }, definitions: { t: { type: 'array', items: { $ref: '#/definitions/t' } } } } };
    let deep: unknown[] = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const error = parseError(() => validateOutput(tree, { t: deep }));
    assert.equal(error.code, 'OUTPUT_INVALID');
    assert.match(error.message, /nested too deeply/);
  });
});

/**
 * The `_output_schema` section for every built-in output schema: it lists every field (every
 * required one marked so) and the example it shows validates against the schema.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateJson, formatViolations } from '../../../core/json-schema.ts';
import { listOutputSchemas, loadOutputSchema } from '../../../core/output/schemas.ts';
import { createRenderer } from '../../../core/prompt/render.ts';
import { describeSchema } from '../../../core/prompt/schema-view.ts';
import { loadTemplateSet } from '../../../core/prompt/templates.ts';
import { asRecord, fakeData, verdictSchema } from './fixtures.ts';

const renderer = createRenderer(await loadTemplateSet(undefined));

type Schema = { properties?: Record<string, Schema>; required?: string[]; items?: Schema; type?: unknown };

/** Every (path, required) pair of a schema, walked independently of schema-view. */
function expectedFields(schema: Schema, prefix = ''): { path: string; required: boolean }[] {
  const target = schema.type === 'array' && schema.items ? schema.items : schema;
  const base = target === schema ? prefix : `${prefix}[]`;
  return Object.entries(target.properties ?? {}).flatMap(([key, sub]) => {
    const path = base ? `${base}.${key}` : key;
    return [{ path, required: (target.required ?? []).includes(key) }, ...expectedFields(sub, path)];
  });
}

function exampleOf(section: string): unknown {
  const match = /Example of the shape[^\n]*\n\n```json\n([\s\S]*?)\n```/.exec(section);
  assert.ok(match, 'the section shows a fenced json example');
  return JSON.parse(match[1]!);
}

const names = listOutputSchemas();

describe('_output_schema for each built-in output schema', () => {
  it('covers the schemas the roles use', () => {
    for (const name of ['plan', 'implementation', 'review', 'generic', 'llm-chat', 'v2-result']) assert.ok(names.includes(name), name);
  });

  for (const name of names) {
    const outputSchema = loadOutputSchema(name, { baseDir: '.' });
    const section = renderer.render('_output_schema', asRecord(fakeData({ outputSchema })));

    it(`${name}: names the schema and lists every field, required ones marked required`, () => {
      assert.match(section, new RegExp(`### Output schema: \`${name}\``));
      const fields = expectedFields(outputSchema.schema as Schema);
      assert.ok(fields.length > 0);
      for (const field of fields) {
        const line = section.split('\n').find((l) => l.trimStart().startsWith(`- \`${field.path}\` (`));
        assert.ok(line, `field ${field.path} is listed`);
        assert.match(line, field.required ? /, required\)/ : /, optional\)/, `${field.path} required=${field.required}`);
      }
    });

    it(`${name}: the example validates against the schema`, () => {
      const result = validateJson(outputSchema.schema, exampleOf(section));
      assert.ok(result.valid, formatViolations(result.violations));
    });
  }

  it('shows allowed values, defaults and constraints, and resolves $ref', () => {
    const view = describeSchema(verdictSchema.schema);
    assert.deepEqual(view.fields.map((f) => [f.path, f.type, f.required]), [
      ['status', 'string', true],
      ['findings', 'array of objects', true],
      ['findings[].where', 'string', true],
      ['findings[].line', 'integer', false],
      ['note', 'string or null', false],
    ]);
    assert.equal(view.fields[0]!.summary, '(string, required): The verdict. Allowed values: "OK", "NOT_OK".');
    assert.equal(view.fields[3]!.summary, '(integer, optional): Must be at least 1.');
    assert.equal(view.fields[4]!.summary, '(string or null, optional): Default: null.');
    assert.equal(view.openObject, false);
    assert.ok(validateJson(verdictSchema.schema, JSON.parse(view.example)).valid);
  });

  it('says so when the schema accepts any object', () => {
    const section = renderer.render('_output_schema', asRecord(fakeData({ outputSchema: { name: 'free', file: 'x', schema: { type: 'object' } } })));
    assert.match(section, /must be a single object/);
    assert.deepEqual(exampleOf(section), {});
  });
});

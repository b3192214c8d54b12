import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPluginShape } from '../../../core/plugin-api/shape.ts';
import { loadOutputSchema } from '../../../core/output/schemas.ts';
import { parsers } from '../../../plugins/parsers/index.ts';

describe('parser plugin shape', () => {
  it('the built-in parsers pass; their default schemas exist', () => {
    for (const { plugin } of parsers) {
      assert.equal(checkPluginShape(plugin).ok, true, plugin.name);
      const name = (plugin as { defaultSchema?: string }).defaultSchema;
      if (name) assert.equal(loadOutputSchema(name, { baseDir: '/' }).name, name);
    }
    assert.equal((parsers.find((p) => p.plugin.name === 'v2-headers')!.plugin as { defaultSchema?: string }).defaultSchema, 'v2-result');
  });

  it('formatInstructions must be a function and defaultSchema a schema name', () => {
    const base = { kind: 'parser', name: 'p', parse: () => ({}) };
    const problems = (extra: object) => {
      const check = checkPluginShape({ ...base, ...extra });
      return check.ok ? [] : 'problems' in check ? check.problems : ['unknown kind'];
    };
    assert.deepEqual(problems({ formatInstructions: () => '', defaultSchema: 'review' }), []);
    assert.match(problems({ formatInstructions: 'text' }).join(), /^formatInstructions: /);
    assert.match(problems({ defaultSchema: './schema.json' }).join(), /^defaultSchema: the name of a built-in output schema/);
  });
});

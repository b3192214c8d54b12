// Built-in roles parsed by the build (scripts/pkg/parsed-roles.mjs): the binary reads them from
// its assets instead of parsing their YAML at every run.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../core/assets.ts';
import { knowParsedRoles, parseRoleYaml } from '../../../core/roles/parse-role-yaml.ts';
// @ts-expect-error: a plain .mjs build script without types
import { parsedRoles } from '../../../scripts/pkg/parsed-roles.mjs';

describe('role texts the build parsed', () => {
  it('are taken as the build parsed them, not parsed again, and each caller gets its own copy', () => {
    const text = 'name: known-by-the-build\ncli: claude\n';
    knowParsedRoles({ [text]: { name: 'as-the-build-said', cli: 'claude' } });
    const first = parseRoleYaml(text, '<builtin>/roles/known-by-the-build.yaml');
    assert.deepEqual(first, { name: 'as-the-build-said', cli: 'claude' });
    first.name = 'changed by a caller';
    assert.equal(parseRoleYaml(text, '<builtin>/roles/known-by-the-build.yaml').name, 'as-the-build-said');
  });

  it('are every built-in role file, as the parser reads it at run time', async () => {
    const { asset, json, files } = (await parsedRoles(PROJECT_ROOT)) as { asset: string; json: string; files: string[] };
    const builtins = readdirSync(join(PROJECT_ROOT, 'roles')).filter((f) => /\.ya?ml$/.test(f)).sort();
    assert.deepEqual(files, builtins);
    assert.equal(asset, 'parsed/roles.json');
    const parsed = JSON.parse(json) as Record<string, unknown>;
    for (const name of builtins) {
      const text = readFileSync(join(PROJECT_ROOT, 'roles', name), 'utf8');
      assert.deepEqual(parsed[text], parseRoleYaml(text, name), name);
    }
  });
});

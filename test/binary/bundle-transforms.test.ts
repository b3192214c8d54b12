// The build's source transforms, checked without a binary (they run on this Node).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { renderApiModuleSource } from '../../core/binary/plugin-api-hooks.ts';
// @ts-expect-error: a plain .mjs build script without types
import { LAZY_REQUIRE_HELPER, makeBuiltinsLazy } from '../../scripts/pkg/lazy-builtins.mjs';

const require = createRequire(import.meta.url);

describe('lazy built-ins in the bundle', () => {
  it('turns named-import requires of heavy built-ins into proxies and leaves the rest', () => {
    const code = [
      'var import_node_crypto = require("node:crypto");',
      '    import_promises = require("node:fs/promises");',
      'var import_node_path = require("node:path");',
      'var fs = __toESM(require("node:child_process"));',
    ].join('\n');
    const { code: out, count } = makeBuiltinsLazy(code);
    assert.equal(count, 2);
    assert.match(out, /import_node_crypto = __supervisorLazyRequire\("node:crypto"\)/);
    assert.match(out, /import_promises = __supervisorLazyRequire\("node:fs\/promises"\)/);
    assert.match(out, /import_node_path = require\("node:path"\)/);
    assert.match(out, /__toESM\(require\("node:child_process"\)\)/);
  });

  it('loads the module on first use and behaves like it', () => {
    const lazy = new Function('require', `${LAZY_REQUIRE_HELPER}\nreturn __supervisorLazyRequire;`)(require) as (id: string) => typeof import('node:path');
    const path = lazy('node:path');
    assert.equal((0, path.join)('a', 'b'), 'a/b');
    assert.ok('basename' in path);
    assert.ok(Object.keys(path).includes('resolve'));
  });
});

describe('the supervisor/plugin virtual module', () => {
  it('re-exports every API member by name from the global handle, skipping invalid names', () => {
    const source = renderApiModuleSource(['definePlugin', 'errors', 'SupervisorError', 'default', 'not-valid']);
    assert.match(source, /export const \{ definePlugin, errors, SupervisorError \} = api;/);
    assert.match(source, /Symbol\.for\('supervisor\.pluginApi'\)/);
    assert.doesNotMatch(source, /not-valid/);
  });
});

/** $TARGET_IMPORTS on small TypeScript / JavaScript and Python repositories. */
import assert from 'node:assert/strict';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveTargetImports } from '../../../core/context/imports.ts';
import { packFileContext } from '../../../core/context/pack.ts';
import { createPathGuard } from '../../../core/context/path-safety.ts';
import { makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { makeRole, packerRegistry } from './_helpers.ts';

/** The targets as packing hands them over: path and text, read once. */
const sources = (repo: string, paths: string[]) => Promise.all(paths.map(async (path) => ({ path, content: await readFile(join(repo, path), 'utf8') })));

describe('$TARGET_IMPORTS for TypeScript and JavaScript', () => {
  const files = {
    'src/main.ts': [
      "import { a } from './a.js';",
      "import type { B } from './types';",
      'import {',
      '  c,',
      "} from './c';",
      "import './side-effect.ts';",
      "export { d } from './d/index.js';",
      "export * from './e';",
      "const f = require('./f.cjs');",
      "const g = await import('./g.mjs');",
      "import fs from 'node:fs';",
      "import lodash from 'lodash';",
      "import { nope } from './does-not-exist';",
      "import { up } from '../shared/up';",
      "import { dir } from './folder';",
    ].join('\n'),
    'src/a.ts': 'export const a = 1;\n',
    'src/types.d.ts': 'export type B = 1;\n',
    'src/c.tsx': 'export const c = 1;\n',
    'src/side-effect.ts': '\n',
    'src/d/index.ts': 'export const d = 1;\n',
    'src/e.js': 'export const e = 1;\n',
    'src/f.cjs': 'module.exports = 1;\n',
    'src/g.mjs': 'export default 1;\n',
    'shared/up.ts': 'export const up = 1;\n',
    'src/folder/index.js': 'export const dir = 1;\n',
    'src/unrelated.ts': 'export const z = 1;\n',
  };

  it('resolves import, export-from, side-effect imports, require and import() with extensions and index files', async () => {
    const repo = await makeRepo(files);
    const found = await resolveTargetImports(createPathGuard(repo), await sources(repo, ['src/main.ts']));
    assert.deepEqual(found, [
      'shared/up.ts',
      'src/a.ts',
      'src/c.tsx',
      'src/d/index.ts',
      'src/e.js',
      'src/f.cjs',
      'src/folder/index.js',
      'src/g.mjs',
      'src/side-effect.ts',
      'src/types.d.ts',
    ]);
  });

  it('packs them as the imports part, between the targets and the other files, each once', async () => {
    const repo = await makeRepo(files);
    const packed = await packFileContext({
      role: makeRole({ include: ['$TARGET', '$TARGET_IMPORTS', 'src/**'] }),
      repoRoot: repo,
      targets: ['src/main.ts'],
      registry: packerRegistry(),
    });
    assert.deepEqual(packed.parts.map((p) => p.key), ['target_file', 'imports', 'files']);
    assert.match(packed.text, /## Imported Files\n\n### shared\/up\.ts/);
    assert.deepEqual(packed.parts.find((p) => p.key === 'files')?.files, ['src/unrelated.ts']);
    assert.equal(packed.text.split('### src/a.ts').length - 1, 1);
  });

  it('never resolves an import through a symlink out of the repository', async () => {
    const outside = await tempDir('sv-outside-');
    await writeFiles(outside, { 'evil.ts': 'export const evil = 1;\n' });
    const repo = await makeRepo({ 'main.ts': "import { evil } from './evil';\nimport { x } from '../../../etc/passwd';\n" });
    await symlink(join(outside, 'evil.ts'), join(repo, 'evil.ts'));
    assert.deepEqual(await resolveTargetImports(createPathGuard(repo), await sources(repo, ['main.ts'])), []);
  });
});

describe('$TARGET_IMPORTS for Python', () => {
  it('resolves relative imports, submodules and absolute imports of packages in the repository', async () => {
    const repo = await makeRepo({
      'app/__init__.py': '',
      'app/service.py': [
        'from . import models',
        'from .utils import helper',
        'from .sub import (',
        '    alpha,',
        '    beta as b,',
        ')',
        'from .. import toplevel',
        'import app.config',
        'import os, json',
        'from app.db import session',
        'from pkg.inner import thing',
        'import requests',
      ].join('\n'),
      'app/models.py': 'class M: pass\n',
      'app/utils.py': 'def helper(): pass\n',
      'app/sub/__init__.py': '',
      'app/sub/alpha.py': '',
      'app/sub/beta.py': '',
      'app/config.py': '',
      'app/db/__init__.py': '',
      'app/db/session.py': '',
      'toplevel.py': '',
      'src/pkg/__init__.py': '',
      'src/pkg/inner.py': '',
      'app/unused.py': '',
    });
    const found = await resolveTargetImports(createPathGuard(repo), await sources(repo, ['app/service.py']));
    assert.deepEqual(found, [
      'app/config.py',
      'app/db/__init__.py',
      'app/db/session.py',
      'app/models.py',
      'app/sub/__init__.py',
      'app/sub/alpha.py',
      'app/sub/beta.py',
      'app/utils.py',
      'src/pkg/inner.py',
      'toplevel.py',
    ]);
  });
});

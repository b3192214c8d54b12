/**
 * What start-up loads: the modules statically reachable from the CLI entries. Plugins (the
 * loader and every built-in) come with the registry, on first use, never at start-up; the
 * binary bundles the same graph, so this holds for it too.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Relative specifiers of a module's static imports and re-exports; `import type` is erased and skipped. */
function staticImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.[^']+)'/gm)) {
    if (!match[1]) found.push(match[2]!);
  }
  return found;
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const walk = (file: string) => {
    const key = relative(root, file).split('\\').join('/');
    if (seen.has(key)) return;
    seen.add(key);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) walk(resolve(dirname(file), spec));
  };
  walk(join(root, entry));
  return seen;
}

describe('start-up imports', () => {
  it('reads static imports, multi-line ones included, and skips type-only ones', () => {
    const source = "import { a } from './a.ts';\nimport {\n  b,\n  type C,\n} from './b.ts';\nimport type { D } from './d.ts';\nexport { e } from './e.ts';\nconst f = await import('./f.ts');\n";
    assert.deepEqual(staticImports(source), ['./a.ts', './b.ts', './e.ts']);
  });

  for (const entry of ['core/cli/main.ts', 'core/binary/main.ts']) {
    it(`${entry} reaches no plugin loader and no built-in plugin statically`, () => {
      const modules = [...reachable(entry)];
      assert.ok(modules.includes('core/command/deps.ts'), modules.join(', '));
      assert.deepEqual(modules.filter((m) => m.startsWith('plugins/') || m.startsWith('core/plugins/')), []);
    });
  }
});

/**
 * Golden files: the exact prompt of every built-in role for a fixed repository, task, targets
 * and extra context (test/fixtures/prompts/<role>.txt). A change to a template, a role, an
 * output schema or the packers shows up here as a diff to review.
 *
 * Regenerate after an intended change, then read the diff before committing:
 *   UPDATE_GOLDENS=1 node scripts/test.mjs test/core/prompt/golden.test.ts
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { listAssets } from '../../../core/assets.ts';
import { buildPrompt } from '../../../core/prompt/build-prompt.ts';
import { loadRole } from '../../../core/roles/load-role.ts';
import { git, makeRepo, writeFiles } from '../../helpers/git-repo.ts';
import { ADAPTERS, packerRegistry } from './fixtures.ts';

const GOLDEN_DIR = fileURLToPath(new URL('../../fixtures/prompts/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDENS === '1';

/** A small, fixed repository: every file a built-in role's context spec can pick up. */
async function fixedRepo(): Promise<string> {
  const repo = await makeRepo({
    'README.md': '# Greeter\n\nA tiny library that greets people.\n',
    'ARCHITECTURE.md': '# Architecture\n\n`src/greet.ts` formats greetings; `src/names.ts` normalises names.\n',
    'package.json': '{\n  "name": "greeter",\n  "type": "module",\n  "scripts": { "test": "node --test" }\n}\n',
    'src/greet.ts': "import { normalise } from './names.ts';\n\nexport function greet(name: string): string {\n  return `Hello, ${normalise(name)}!`;\n}\n",
    'src/names.ts': 'export function normalise(name: string): string {\n  return name.trim();\n}\n',
    'test/greet.test.ts': "import { greet } from '../src/greet.ts';\n",
  });
  // A staged change, for roles that review the staged diff.
  await writeFiles(repo, { 'src/names.ts': 'export function normalise(name: string): string {\n  return name.trim() || "stranger";\n}\n' });
  git(repo, 'add', 'src/names.ts');
  return repo;
}

const roles = listAssets('roles')
  .filter((asset) => asset.endsWith('.yaml'))
  .map((asset) => asset.slice('roles/'.length, -'.yaml'.length));

describe('golden prompts of the built-in roles', async () => {
  const repo = await fixedRepo();
  const registry = await packerRegistry();

  it('covers the base roles', () => {
    for (const name of ['planner', 'implementer', 'reviewer']) assert.ok(roles.includes(name), name);
  });

  for (const name of roles) {
    it(name, async () => {
      const role = await loadRole(name, { repoRoot: repo, homeDir: repo, adapters: ADAPTERS });
      const built = await buildPrompt({
        role,
        task: 'Greet an empty name as "stranger" instead of printing an empty greeting (task id: greet-42).',
        targets: ['src/names.ts'],
        extraContext: { test_output: 'not ok 1 - greet("") returns "Hello, stranger!"' },
        repoRoot: repo,
        registry,
        instructionsAsArguments: false,
      });
      // Machine-specific bits: the temp repository's path, and blob ids whose length follows git's core.abbrev.
      const actual = built.prompt.replaceAll(repo, '<repo>').replace(/^index [0-9a-f]+\.\.[0-9a-f]+/gm, 'index <blob>..<blob>');
      const file = join(GOLDEN_DIR, `${name}.txt`);
      if (UPDATE) {
        await mkdir(GOLDEN_DIR, { recursive: true });
        await writeFile(file, actual);
        return;
      }
      const expected = await readFile(file, 'utf8').catch(() => assert.fail(`No golden file ${file}: run UPDATE_GOLDENS=1 node scripts/test.mjs test/core/prompt/golden.test.ts`));
      assert.equal(actual, expected, `The ${name} prompt changed. If intended, regenerate with UPDATE_GOLDENS=1 and review the diff.`);
    });
  }
});

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { loadPluginTypes, PLUGIN_TYPES_FILE } from '../../../core/plugins/plugin-types.ts';
import { tempDir } from '../../helpers/git-repo.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Each name a module exports, with the doc comment its declaration carries. */
function documentedExports(checker: ts.TypeChecker, module: ts.Symbol): Map<string, string> {
  const docs = new Map<string, string>();
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    docs.set(exported.name, ts.displayPartsToString(symbol.getDocumentationComment(checker)));
  }
  return docs;
}

function problems(program: ts.Program): string[] {
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('the generated plugin declarations (supervisor plugins types)', () => {
  const made: string[] = [];
  after(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

  // skipLibCheck off, unlike the tsconfig `plugins new` writes: a declaration that names a type
  // the file does not hold (a contract split across files, one left behind) must fail here.
  it('declare every export of core/plugin-api/index.ts with its doc comment, and check clean', async () => {
    const dir = await tempDir('sv-plugin-types-');
    made.push(dir);
    const declarations = join(dir, PLUGIN_TYPES_FILE);
    await writeFile(declarations, await loadPluginTypes());

    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
    };
    const generated = ts.createProgram([declarations], options);
    assert.deepEqual(problems(generated), []);
    const api = generated.getTypeChecker().getAmbientModules().find((m) => m.name === '"supervisor/plugin"');
    assert.ok(api, 'declare module "supervisor/plugin"');

    const source = ts.createProgram([join(root, 'core', 'plugin-api', 'index.ts')], options);
    const index = source.getSourceFile(join(root, 'core', 'plugin-api', 'index.ts'))!;
    const expected = documentedExports(source.getTypeChecker(), source.getTypeChecker().getSymbolAtLocation(index)!);
    assert.ok(expected.has('AdapterHooks') && expected.has('WorktreeGit') && expected.has('definePlugin'));
    assert.deepEqual(documentedExports(generated.getTypeChecker(), api), expected);
  });
});

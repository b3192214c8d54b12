// The declaration file of the public plugin API (`supervisor/plugin`), generated from the
// source of core/plugin-api/ so it never drifts from it: one .d.ts with an ambient module per
// source file it reaches, and `declare module "supervisor/plugin"` re-exporting the API.
// The build inlines it into the binary (asset types/supervisor-plugin.d.ts); from source,
// core/plugins/plugin-types.ts calls this on demand. Needs the `typescript` package.
import { join } from 'node:path';
import ts from 'typescript';

const PREFIX = 'supervisor:internal/';

/** @param {string} root the project root (with a trailing separator or not) */
export function renderPluginTypes(root) {
  const rootDir = join(root, '.');
  const options = {
    declaration: true,
    emitDeclarationOnly: true,
    outFile: join(rootDir, 'supervisor-plugin.d.ts'),
    module: ts.ModuleKind.AMD,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: ['node'],
    rootDir,
  };
  const program = ts.createProgram([join(rootDir, 'core', 'plugin-api', 'index.ts')], options);
  let text = '';
  const emitted = program.emit(undefined, (_file, output) => (text = output), undefined, true);
  const problems = [...emitted.diagnostics, ...program.getSyntacticDiagnostics()];
  if (problems.length || !text) {
    throw new Error(`Cannot generate the plugin declarations: ${problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ') || 'nothing emitted'}`);
  }
  // Internal module names get a prefix no package can have, so they never clash with a user's.
  const body = text.replace(/(declare module |from |import\()"core\//g, `$1"${PREFIX}core/`);
  return [
    '// Types of the supervisor plugin API: `import { definePlugin } from \'supervisor/plugin\'`.',
    '// Generated from supervisor\'s own source (core/plugin-api/); print it again with: supervisor plugins types',
    body.trimEnd(),
    'declare module "supervisor/plugin" {',
    `    export * from "${PREFIX}core/plugin-api/index";`,
    '}',
    '',
  ].join('\n');
}

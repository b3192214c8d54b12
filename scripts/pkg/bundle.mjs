// Bundles the binary's entry (core/binary/main.ts) into one CommonJS file for pkg's SEA mode,
// with the built-in roles/, prompts/ and schemas/ inlined as strings.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { LAZY_REQUIRE_HELPER, makeBuiltinsLazy } from './lazy-builtins.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const shim = (name) => join(here, 'shims', name);

/** Every file under the asset folders, by project-relative path with "/" separators, sorted. */
export function collectAssets(root, folders) {
  const assets = {};
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) assets[relative(root, path).split(sep).join('/')] = readFileSync(path, 'utf8');
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return assets;
}

/** Swaps start-up-heavy or disk-probing dependencies for the shims beside this file. */
const startupShims = {
  name: 'supervisor-startup-shims',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      if (args.importer !== shim('string-width.cjs')) return { path: shim('string-width.cjs') };
      const real = await build.resolve('string-width', { kind: 'import-statement', resolveDir: build.initialOptions.absWorkingDir, pluginData: 'real' });
      if (real.errors.length) return { errors: real.errors };
      return { path: real.path };
    });
    build.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
      /[\\/]node_modules[\\/]yargs[\\/]/.test(args.importer) ? { path: shim('yargs-assert.mjs') } : undefined,
    );
    build.onResolve({ filter: /^escalade\/sync$/ }, (args) =>
      /[\\/]node_modules[\\/]yargs[\\/]/.test(args.importer) ? { path: shim('escalade-sync.mjs') } : undefined,
    );
    build.onLoad({ filter: /[\\/]y18n[\\/]build[\\/]lib[\\/]platform-shims[\\/]node\.js$/ }, () => ({
      contents: readFileSync(shim('y18n-node-shim.mjs'), 'utf8'),
      loader: 'js',
      resolveDir: join(here, 'shims'),
    }));
  },
};

/**
 * One non-ASCII character makes V8 hold the whole multi-megabyte source as UTF-16 (and Node
 * convert it at every start); escape the few esbuild leaves (in regular expressions).
 */
function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Builds `outfile` from the project at `root`: esbuild bundles (unminified, so the lazy-builtin
 * rewrite can read it), then one esbuild transform minifies. Deterministic: same sources and
 * pinned esbuild give the same bytes.
 */
export async function bundle({ root, entry, outfile, assetFolders, minify = true }) {
  const assets = collectAssets(root, assetFolders);
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    define: { 'import.meta.url': 'importMetaUrl' },
    // import() of a built-in becomes require: the bundle runs through vm, whose import() has no loader.
    supported: { 'dynamic-import': false },
    inject: [shim('import-meta-url.mjs')],
    plugins: [startupShims],
  });
  const lazy = makeBuiltinsLazy(result.outputFiles[0].text);
  const banner = `var SUPERVISOR_INLINED_ASSETS = ${JSON.stringify(assets)};\n${LAZY_REQUIRE_HELPER}\n`;
  const final = await esbuild.transform(banner + lazy.code, { loader: 'js', format: 'cjs', platform: 'node', target: 'node24', minify, legalComments: 'none' });
  mkdirSync(dirname(outfile), { recursive: true });
  // Wrapped as a function of the CommonJS module variables: sea-main.cjs compiles it with vm.
  writeFileSync(outfile, `(function (exports, require, module, __filename, __dirname) {${asciiOnly(final.code)}\n})`);
  return { metafile: result.metafile, assetCount: Object.keys(assets).length, lazyBuiltins: lazy.count };
}

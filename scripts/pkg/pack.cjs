// Packs the binary with pkg's SEA pipeline. Run by the pinned Node 24 (pkg refuses older
// hosts), from scripts/build.mjs:
//
//   node pack.cjs <main.cjs> <pkg target, e.g. node24.21.0-linux-x64> <output> [name=file]... [--code-cache] [--exec-argv=<node flag>]...
//
// An asset whose name ends in ".br" is stored brotli-compressed (sea-main.cjs decompresses it).
// The pkg CLI's simple SEA mode drops seaConfig, so this calls the same pipeline through pkg's
// module with a seaConfig: `assets` (the app bundle and its V8 code cache, read by
// sea-main.cjs) and `useCodeCache` for the small main script (host target only: a code cache
// is valid only on the platform that made it), `execArgv` (the V8 flags the binary starts with,
// each given as --exec-argv=<flag>). The Node executable comes from pkg's SEA
// cache, which the build fills from the npm package beforehand (node-binaries.mjs): no download.
'use strict';
const { resolve } = require('node:path');
const options = require('@yao-pkg/pkg/lib-es5/options.js').default;
const sea = require('@yao-pkg/pkg/lib-es5/sea.js').default;

/** Compresses an asset named "*.br" (here, on the pinned Node, so the bytes are reproducible). */
function brotli(file) {
  const { readFileSync, writeFileSync } = require('node:fs');
  const { brotliCompressSync, constants } = require('node:zlib');
  const data = readFileSync(file);
  writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
  return `${file}.br`;
}

async function pack() {
  const [main, target, output, ...rest] = process.argv.slice(2);
  const match = /^node(\d+\.\d+\.\d+)-(linux|win|macos)-(x64|arm64)$/.exec(target ?? '');
  if (!main || !match || !output) throw new Error('usage: pack.cjs <main.cjs> <node24.21.0-linux-x64> <output> [name=file]... [--code-cache]');
  const execArgv = rest.filter((a) => a.startsWith('--exec-argv=')).map((a) => a.slice('--exec-argv='.length));
  const assets = Object.fromEntries(rest.filter((a) => !a.startsWith('--') && a.includes('=')).map((a) => [a.slice(0, a.indexOf('=')), resolve(a.slice(a.indexOf('=') + 1))]));
  for (const [name, file] of Object.entries(assets)) {
    if (name.endsWith('.br') && !file.endsWith('.br')) assets[name] = brotli(file);
  }
  options.set({});
  await sea(resolve(main), {
    targets: [{ nodeRange: `node${match[1]}`, platform: match[2], arch: match[3], output: resolve(output) }],
    signature: match[2] === 'macos',
    seaConfig: { disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: rest.includes('--code-cache'), execArgv, assets },
  });
}

pack().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

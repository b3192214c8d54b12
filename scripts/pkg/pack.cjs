// Packs one bundled CommonJS file into an executable with pkg's SEA pipeline. Run by the pinned
// Node 24 (pkg refuses older hosts), from scripts/build.mjs:
//
//   node pack.cjs <bundle.cjs> <pkg target, e.g. node24.21.0-linux-x64> <output> [--code-cache]
//
// The pkg CLI's simple SEA mode drops seaConfig, so this calls the same pipeline through pkg's
// module with a seaConfig: useCodeCache puts V8's compiled code of the bundle into the binary
// (~8 ms less start-up). The cache is only valid for the platform that generated the blob, so
// it is used for the host's own target only. The Node executable comes from pkg's SEA cache,
// which the build fills from the npm package beforehand (see node-binaries.mjs): no download.
'use strict';
const { resolve } = require('node:path');
const options = require('@yao-pkg/pkg/lib-es5/options.js').default;
const sea = require('@yao-pkg/pkg/lib-es5/sea.js').default;

async function pack() {
  const [entry, target, output, ...flags] = process.argv.slice(2);
  const match = /^node(\d+\.\d+\.\d+)-(linux|win|macos)-(x64|arm64)$/.exec(target ?? '');
  if (!entry || !match || !output) throw new Error('usage: pack.cjs <bundle.cjs> <node24.21.0-linux-x64> <output> [--code-cache]');
  options.set({});
  await sea(resolve(entry), {
    targets: [{ nodeRange: `node${match[1]}`, platform: match[2], arch: match[3], output: resolve(output) }],
    signature: match[2] === 'macos',
    seaConfig: { disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: flags.includes('--code-cache') },
  });
}

pack().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

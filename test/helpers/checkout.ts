/**
 * "The user's checkout is byte-for-byte unchanged": a snapshot of every file in the working
 * tree (content hash and mode), `git status --porcelain`, HEAD (commit and branch) and the
 * index, taken before a run and compared after. Only supervisor's own state
 * (.supervisor/runs, .supervisor/worktrees, the workflows' state folders and the .gitignore it
 * writes) is left out.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

const STATE = new Set(['.git', '.supervisor/runs', '.supervisor/worktrees', '.supervisor/.gitignore']);

/** A workflow's state folder (`.supervisor/workflows/<id>/`, it holds plan.json); plan files beside them still count. */
function isWorkflowState(rel: string, path: string, isDir: boolean): boolean {
  return isDir && rel.startsWith('.supervisor/workflows/') && existsSync(join(path, 'plan.json'));
}

function git(cwd: string, ...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    return `<git ${args.join(' ')} failed: ${(error as { status?: number }).status}>`;
  }
}

function walk(root: string, dir: string, out: Record<string, string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(root, path);
    if (STATE.has(rel) || isWorkflowState(rel, path, entry.isDirectory())) continue;
    const stat = lstatSync(path);
    if (entry.isDirectory()) {
      // .supervisor/ (and its workflows/) appear on the first run; what the user keeps in them still counts.
      if (rel !== '.supervisor' && rel !== '.supervisor/workflows') out[`${rel}/`] = `dir ${stat.mode.toString(8)}`;
      walk(root, path, out);
    } else if (entry.isSymbolicLink()) {
      out[rel] = `link ${readlinkSync(path)}`;
    } else {
      out[rel] = `${stat.mode.toString(8)} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    }
  }
}

export interface CheckoutSnapshot {
  files: Record<string, string>;
  status: string;
  head: string;
  branch: string;
  index: string;
}

export function snapshotCheckout(root: string): CheckoutSnapshot {
  const files: Record<string, string> = {};
  walk(root, root, files);
  return {
    files,
    status: git(root, 'status', '--porcelain=v1', '-z', '--untracked-files=all'),
    head: git(root, 'rev-parse', '-q', '--verify', 'HEAD'),
    branch: git(root, 'symbolic-ref', '-q', 'HEAD'),
    index: createHash('sha256').update(git(root, 'ls-files', '--stage', '-z')).digest('hex'),
  };
}

/** Asserts that nothing in the checkout changed since `before`. */
export function assertCheckoutUnchanged(root: string, before: CheckoutSnapshot): void {
  assert.deepEqual(snapshotCheckout(root), before, `the user's checkout at ${root} changed`);
}

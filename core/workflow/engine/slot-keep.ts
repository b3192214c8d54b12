/**
 * Slots kept from command to command (set-up once, issue 28 item 3): a command that leaves the
 * workflow unfinished (awaiting approval, gaps, stopped, interrupted) keeps its slots that hold
 * a set-up, with what set-up ran and made there, in a `slots_kept` event. The next command
 * (approve, reject, resume, retry) takes them back only after checking each again, as git must
 * see it (SECURITY I3: a CLI may have rewritten its `.git` file or admin folder meanwhile): a
 * path of our own names, its admin folder this repository's, links intact; then detached and
 * cleaned (what set-up made stays). A slot that fails goes, and is made anew. A slot whose
 * set-up a later, killed command ran again (its `setup` events) keeps no key: set-up runs.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { commonGitDir, type BoundWorktree } from '../../git/bound-git.ts';
import { checkWorktree, gitOf } from '../../git/verified-worktree.ts';
import { excludePathspecs } from '../../run/setup.ts';
import type { Engine } from './context.ts';
import type { EventOf, WorkflowEvent } from './events.ts';
import { removeWorktree } from './git-ops.ts';
import { gatesWorktree, slotsDir } from './names.ts';
import { checkSlot, isSetAside, recordSlot } from './slots.ts';

type KeptSlot = EventOf<'slots_kept'>['slots'][number];

/** A slot's name as slotWorktree makes it: `<n>` or `<generation>-<n>`, directly in the slots folder. */
function isOurSlotPath(engine: Engine, path: string): boolean {
  return path === gatesWorktree(engine.paths) || (dirname(path) === slotsDir(engine.paths) && /^\d+(-\d+)?$/.test(basename(path)));
}

/** Whether nothing can run in the workflow again: every task integrated (or skipped) and its gates passed. */
function finished(engine: Engine): boolean {
  const tasks = [...engine.tasks.values()];
  const gates = engine.workflow.gates.length === 0 || engine.state.gates.passed === true;
  return gates && tasks.every((r) => r.state === 'integrated' || r.state === 'skipped');
}

/**
 * At the end of a command: the slots (and the gates' worktree) go, as before, unless the
 * workflow may run again and the slot holds a set-up: then it stays, recorded.
 */
export async function leaveSlots(engine: Engine): Promise<void> {
  const pool = engine.ops.slots;
  const gates = gatesWorktree(engine.paths);
  const keep = !finished(engine);
  const kept: KeptSlot[] = [];
  const gone: string[] = [];
  for (const path of [...pool.made, gates]) {
    if (!existsSync(path) || isSetAside(pool, path)) continue;
    const setup = pool.setups.get(path);
    const slot = pool.recorded.get(path);
    if (keep && setup && slot && (await detached(engine, path))) kept.push({ path, git_dir: slot.git.gitDir, setup_key: setup.key, exclude: setup.exclude, gates: path === gates });
    else gone.push(path);
  }
  await Promise.all(gone.map((path) => removeWorktree(engine.ops, path).catch(() => {})));
  if (kept.length) engine.store.append('slots_kept', { slots: kept });
}

/** A kept slot holds no branch (gc, finish and discard may then delete it): checked, then detached. */
async function detached(engine: Engine, path: string): Promise<boolean> {
  const slot = engine.ops.slots.recorded.get(path);
  if (!slot || slot.branch === null) return slot !== undefined;
  const checked = await checkSlot(engine.ops.slots, path, engine.ops.env);
  if (checked.problem !== null || !(await checked.bound.run(['checkout', '-q', '-f', '--detach'])).ok) return false;
  slot.branch = null;
  return true;
}

/** The slots the last command kept, with the paths set-up ran in again after it (a killed command's). */
function lastKept(events: WorkflowEvent[]): { slots: KeptSlot[]; setUpAgain: Set<string> } {
  let at = -1;
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i]!.kind === 'slots_kept') {
      at = i;
      break;
    }
  }
  if (at < 0) return { slots: [], setUpAgain: new Set() };
  const later = events.slice(at + 1).flatMap((e) => (e.kind === 'setup' ? [e.path] : []));
  return { slots: (events[at] as EventOf<'slots_kept'>).slots, setUpAgain: new Set(later) };
}

/** One kept slot checked, detached and cleaned; false when it is no longer the slot we made. */
async function takeBack(engine: Engine, entry: KeptSlot, commonDir: string): Promise<BoundWorktree | null> {
  if (!isOurSlotPath(engine, entry.path) || dirname(entry.git_dir) !== join(commonDir, 'worktrees')) return null;
  const git: BoundWorktree = { path: entry.path, gitDir: entry.git_dir, commonDir };
  const check = await checkWorktree(git, {}, engine.ops.env);
  if (check.problem || !check.verified) return null;
  const bound = gitOf(check.verified, engine.ops.env);
  if (!(await bound.run(['checkout', '-q', '-f', '--detach'])).ok) return null;
  const clean = await bound.run(['clean', '-q', '-fd', ...(entry.exclude.length ? ['--', '.', ...excludePathspecs(entry.exclude)] : [])]);
  return clean.ok ? git : null;
}

/**
 * At the start of resume, approve, reject, retry: the slots the last command kept come back
 * into the pool, free, with their set-up; every other folder in the slots folder goes (a killed
 * run's: anything uncommitted there is dropped, as a task caught mid-run restarts from its
 * branch's last commit).
 */
export async function restoreSlots(engine: Engine, events: WorkflowEvent[]): Promise<void> {
  const pool = engine.ops.slots;
  const { slots, setUpAgain } = lastKept(events);
  const restored = new Set<string>();
  if (slots.length) {
    const commonDir = await commonGitDir(engine.options.repoRoot, engine.ops.env);
    for (const entry of slots) {
      if (restored.has(entry.path) || !existsSync(entry.path)) continue;
      const git = await takeBack(engine, entry, commonDir).catch(() => null);
      if (!git) continue;
      recordSlot(pool, entry.path, git, null);
      if (entry.setup_key !== null && !setUpAgain.has(entry.path)) pool.setups.set(entry.path, { key: entry.setup_key, exclude: entry.exclude });
      if (!entry.gates) {
        pool.made.push(entry.path);
        pool.free.push(entry.path);
      }
      restored.add(entry.path);
    }
  }
  const dir = slotsDir(engine.paths);
  const stale = existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)).filter((path) => !restored.has(path)) : [];
  const gates = gatesWorktree(engine.paths);
  if (!restored.has(gates) && existsSync(gates)) stale.push(gates);
  await Promise.all(stale.map((path) => removeWorktree(engine.ops, path).catch(() => {})));
}

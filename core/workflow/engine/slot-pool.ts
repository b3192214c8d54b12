/**
 * The workflow's worktree slots, one pool per engine run: which slots were made and which are
 * free, what git was recorded for each when it was made (slots.ts checks against it), which
 * were set aside, and what set-up ran and left in each (slot-setup.ts).
 */
import type { BoundWorktree } from '../../git/bound-git.ts';
import { slotWorktree, type WorkflowPaths } from './names.ts';

export interface Slot {
  git: BoundWorktree;
  /** The branch the slot has checked out (a free slot may still have its last integrated task's); null: detached. */
  branch: string | null;
}

export interface SlotSetup {
  /** The set-up that ran there (commands and copies). */
  key: string;
  /** What it left: never committed, never cleaned. */
  exclude: string[];
}

export class SlotPool {
  /** Slots by path: what was recorded when each was made. */
  readonly recorded = new Map<string, Slot>();
  /** Slots set aside (broken, or holding work the commit cannot take): never reused or removed. */
  readonly setAside = new Set<string>();
  /** What set-up ran in each slot, and left there. */
  readonly setups = new Map<string, SlotSetup>();
  /** Task slots made so far (at most `jobs`); free ones wait in `free`. */
  readonly made: string[] = [];
  readonly free: string[] = [];
  /** How many times the workflow was resumed: slot names of this process (see slotWorktree). */
  generation = 0;
  private readonly paths: WorkflowPaths;

  constructor(paths: WorkflowPaths) {
    this.paths = paths;
  }

  /** A free slot, else the path of a new one (made by the task that takes it). */
  take(): string {
    const worktree = this.free.pop() ?? slotWorktree(this.paths, this.made.length, this.generation);
    if (!this.made.includes(worktree)) this.made.push(worktree);
    return worktree;
  }

  /** The slot serves the next task. */
  release(worktree: string): void {
    this.free.push(worktree);
  }
}

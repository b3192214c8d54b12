/**
 * The integration branch is the engine's. A CLI working in a slot can reset or delete
 * `refs/heads/supervisor/wf/<id>` (it is a branch of the repository it commits to), so the
 * engine keeps its own record outside `refs/heads` — `refs/supervisor/integration/<id>`, which
 * no branch command touches — and moves both together, by compare-and-swap, in one ref
 * transaction. Before each merge and at the end the branch is compared with where the engine
 * left it (this process's memory, else the record); a branch found elsewhere or gone is put
 * back and reported (`integration_moved`).
 */
import { gitErrors } from '../../git/errors.ts';
import { git, type GitEnv } from '../../git/git.ts';

interface RefOps {
  repoRoot: string;
  env: GitEnv;
  /** The repository's all-zero object id, once asked (zeroId). */
  zero?: Promise<string>;
  /** Told when the branch was found moved or deleted and was put back. */
  onIntegrationMoved?: (moved: IntegrationMoved) => void;
}

export interface IntegrationMoved {
  branch: string;
  /** The engine's record it was restored from. */
  record: string;
  /** Where the branch was found; null: it was deleted. */
  found: string | null;
  /** Where the engine left it, and where it is again. */
  restored: string;
}

/**
 * `refs/supervisor/integration/<id>` for the branch `supervisor/wf/<id>`. Not
 * `refs/supervisor/wf/<id>`: git tries `refs/<name>` before `refs/heads/<name>`, so that would
 * make the branch's own short name ambiguous (and mean the record).
 */
export function recordRef(branch: string): string {
  return `refs/supervisor/integration/${branch.replace(/^supervisor\/wf\//, '')}`;
}

/** The all-zero object id of the repository's object format (40 digits for SHA-1, 64 for SHA-256). */
export function zeroId(ops: RefOps): Promise<string> {
  ops.zero ??= git(ops.repoRoot, ['rev-parse', '--show-object-format'], ops.env).then((r) => '0'.repeat(r.ok && r.stdout.trim() === 'sha256' ? 64 : 40));
  return ops.zero;
}

/**
 * The branch and its record, in one git (every task reads them between waves): what each ref
 * holds as it is, so a restore's compare-and-swap names the value it replaces; null: missing.
 */
async function readPair(ops: RefOps, branch: string): Promise<[string | null, string | null]> {
  const refs = [`refs/heads/${branch}`, recordRef(branch)];
  const result = await git(ops.repoRoot, ['for-each-ref', '--format=%(objectname) %(refname)', ...refs], ops.env);
  if (!result.ok) throw gitErrors.failed(['for-each-ref', ...refs], result.stderr, result.code);
  const found = new Map<string, string>();
  for (const line of result.stdout.split('\n')) {
    const [id, name] = line.split(' ');
    if (id && name) found.set(name, id);
  }
  return [found.get(refs[0]!) ?? null, found.get(refs[1]!) ?? null];
}

/** One transaction: every ref moves from its old value to its new one, or none does. */
async function swap(ops: RefOps, moves: { ref: string; next: string; old: string }[], message: string): Promise<void> {
  const stdin = `start\n${moves.map((m) => `update ${m.ref} ${m.next} ${m.old}\n`).join('')}commit\n`;
  const result = await git(ops.repoRoot, ['update-ref', '-m', message, '--stdin'], ops.env, stdin);
  if (!result.ok) throw gitErrors.failed(['update-ref', '--stdin'], result.stderr, result.code);
}

/** The integration branch while the merge queue holds it: its ref operations run without queueing again. */
export interface HeldIntegration {
  tip(): Promise<string>;
  known(): Promise<string>;
  move(next: string, old: string, message: string): Promise<void>;
}

/**
 * One integration branch as this process drives it: where it last left the branch, and the
 * one queue every operation on it waits in (a check, a move, the merge queue's candidate and
 * its gates). A move updates the refs on disk before it updates `last`, and git's ref
 * transaction is not atomic for readers (each ref file is renamed in turn): a check running
 * beside a move would see the branch or its record moved and "restore" a merge just made.
 */
export class IntegrationBranch {
  /** Where this process last left the branch; null: not known yet. */
  private last: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly held: HeldIntegration = {
    tip: () => this.tipLocked(),
    known: () => (this.last ? Promise.resolve(this.last) : this.tipLocked()),
    move: (next, old, message) => this.moveLocked(next, old, message),
  };

  private readonly ops: RefOps;
  readonly name: string;

  constructor(ops: RefOps, name: string) {
    this.ops = ops;
    this.name = name;
  }

  /** Runs `work` alone on the branch (merges and gates never overlap, checks never see a move half done). */
  exclusive<T>(work: (held: HeldIntegration) => Promise<T>): Promise<T> {
    const run = () => work(this.held);
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  /**
   * Makes the branch and its record at `base` (new workflow), or takes them as they are
   * (resume: the branch is checked against the record by tip()). A branch without a
   * record (a workflow of an earlier version) gets one at its tip.
   */
  open(base: string): Promise<string> {
    return this.exclusive(() => this.openLocked(base));
  }

  /**
   * The branch's tip, after checking it is where the engine left it; a branch found elsewhere
   * or deleted is restored (and its record too) and reported through `onIntegrationMoved`.
   */
  tip(): Promise<string> {
    return this.exclusive((held) => held.tip());
  }

  /**
   * Where the engine last left the branch, without git (a task's start and its review range are
   * taken from the engine's own record); the branch itself is checked before every merge and at
   * the end (tip()).
   */
  known(): Promise<string> {
    return this.last ? Promise.resolve(this.last) : this.tip();
  }

  /** Moves the branch and its record from `old` to `next` together, only if both are still at `old`. */
  move(next: string, old: string, message: string): Promise<void> {
    if (next === old) return Promise.resolve();
    return this.exclusive((held) => held.move(next, old, message));
  }

  private async openLocked(base: string): Promise<string> {
    const { ops, name: branch } = this;
    const zero = await zeroId(ops);
    const [tip, record] = await readPair(ops, branch);
    if (record) {
      this.last = record;
      return this.tipLocked();
    }
    const start = tip ?? base;
    await swap(ops, [...(tip ? [] : [{ ref: `refs/heads/${branch}`, next: start, old: zero }]), { ref: recordRef(branch), next: start, old: zero }], 'supervisor workflow: create');
    this.last = start;
    return start;
  }

  private async tipLocked(): Promise<string> {
    const { ops, name: branch } = this;
    const [found, record] = await readPair(ops, branch);
    const expected = this.last ?? record;
    if (!expected) {
      if (!found) throw new Error(`the integration branch ${branch} is gone, and so is the engine's record of it (${recordRef(branch)})`);
      return found;
    }
    if (found === expected && record === expected) return found;
    const zero = await zeroId(ops);
    const moves = [
      ...(found === expected ? [] : [{ ref: `refs/heads/${branch}`, next: expected, old: found ?? zero }]),
      ...(record === expected ? [] : [{ ref: recordRef(branch), next: expected, old: record ?? zero }]),
    ];
    await swap(ops, moves, 'supervisor workflow: restore the integration branch');
    this.last = expected;
    if (found !== expected) ops.onIntegrationMoved?.({ branch, record: recordRef(branch), found, restored: expected });
    return expected;
  }

  private async moveLocked(next: string, old: string, message: string): Promise<void> {
    if (next === old) return;
    const { ops, name: branch } = this;
    try {
      await swap(ops, [{ ref: `refs/heads/${branch}`, next, old }, { ref: recordRef(branch), next, old }], message);
    } catch (error) {
      // A CLI moved or deleted the branch since it was checked (its gates ran meanwhile): the
      // record is the guard. Still at `old`, it moves with the branch from wherever that is now.
      const [found, record] = await readPair(ops, branch);
      if (record !== old || found === old) throw error;
      await swap(ops, [{ ref: `refs/heads/${branch}`, next, old: found ?? (await zeroId(ops)) }, { ref: recordRef(branch), next, old }], message);
      ops.onIntegrationMoved?.({ branch, record: recordRef(branch), found, restored: next });
    }
    this.last = next;
  }
}

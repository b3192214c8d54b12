/**
 * What a CLI did outside its worktree. The user's checkout (HEAD, its branch, the index,
 * `git status`, the state on disk of every changed or untracked file) and the repository's branch
 * list are recorded before the CLI starts and compared after: any difference is named.
 * Supervisor's own state (`.supervisor/runs`, `worktrees`, `workflows`, `cache`, the `.gitignore`
 * it writes there) is left out; the rest of `.supervisor/` (roles, plugins) is the user's and
 * counts. Supervisor's branches are compared by their own rule: runs in parallel create
 * `supervisor/<run-id>` branches and a workflow moves its `supervisor/wf/...` branches (its
 * engine, and each task's CLI on its own branch), so creating those counts for nothing; but
 * deleting any of them that is not the run's own, or moving another run's
 * `supervisor/<run-id>` branch (made once, never moved), is an escape.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { git, type GitEnv } from '../git/git.ts';
import { indexAgainst, indexFileOf, keptIndexDigest } from './checkout-index.ts';
import { isRunId } from './run-id.ts';
import { nameList } from '../text/name-list.ts';

/** Beyond this many changed files only `git status` is compared. */
const STAT_MAX_FILES = 20000;
const SHOWN = 8;
/** What runs write in the checkout themselves (see state-dir.ts). */
const OWN_STATE = ['.supervisor/runs', '.supervisor/worktrees', '.supervisor/workflows', '.supervisor/cache', '.supervisor/.gitignore'];

export interface CheckoutState {
  head: string;
  branch: string;
  /** A digest of the index's entries (`ls-files --stage`), or of the index file while it is kept (checkout-index.ts). */
  index: string;
  /** The index file as it is on disk (fingerprint); '' when it is not `<root>/.git/index`. */
  indexFile: string;
  /** The index file's bytes, when its entries were not listed: a later record lists them only if it finds another file. */
  keptIndex?: Buffer;
  /** Path → the status letters and a fingerprint of the file as it is. */
  files: Map<string, string>;
  /** refs/heads/<name> → commit, without supervisor's own run branches. */
  branches: Map<string, string>;
  /** Supervisor's own branches (`supervisor/<run-id>`, `supervisor/wf/...`) → commit. */
  supervisorBranches: Map<string, string>;
  /** Every other ref (tags, remotes, notes, a CLI's own such as `refs/cline/checkpoints/...`) → object. */
  otherRefs: Map<string, string>;
  /** Every git question was answered (a git ended by a stop signal leaves the record incomplete). */
  complete: boolean;
}

/**
 * A file as it is on disk, without reading it: any write changes its ctime (which no
 * unprivileged process can set back), so size and times catch an append or a rewrite that
 * keeps the size and the modification time.
 */
function fingerprint(path: string): string {
  try {
    const stat = lstatSync(path, { bigint: true });
    return `${stat.mode} ${stat.ino} ${stat.size} ${stat.mtimeNs} ${stat.ctimeNs}`;
  } catch {
    return 'gone';
  }
}

/** After `count` space-separated fields, the rest of a status record (a path may hold spaces). */
function afterFields(record: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n++) at = record.indexOf(' ', at) + 1;
  return at > 0 ? record.slice(at) : '';
}

interface StatusRecord {
  /** HEAD's commit, '' on an unborn branch. */
  head: string;
  /** `refs/heads/<branch>` HEAD is on, '' when detached. */
  branch: string;
  /** Path → the status letters, the index entry's mode and blob, and a fingerprint of the file as it is. */
  files: Map<string, string>;
}

/** `status --porcelain=v2 --branch -z` → HEAD, its branch and the changed files. */
function readStatus(root: string, status: string): StatusRecord {
  const record: StatusRecord = { head: '', branch: '', files: new Map() };
  const entries = status.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.startsWith('# branch.oid ')) record.head = entry.slice(13) === '(initial)' ? '' : entry.slice(13);
    else if (entry.startsWith('# branch.head ')) record.branch = entry.slice(14) === '(detached)' ? '' : `refs/heads/${entry.slice(14)}`;
    if (entry[1] !== ' ' || !'12u?'.includes(entry[0]!)) continue;
    const fields = entry.split(' ');
    // 1 XY sub mH mI mW hH hI path; 2 ... score path NUL origPath; u XY sub m1 m2 m3 mW h1 h2 h3 path; ? path
    const [kind, xy] = [entry[0]!, entry[0] === '?' ? '??' : fields[1]!];
    const path = afterFields(entry, { '1': 8, '2': 9, u: 10, '?': 1 }[kind]!);
    const index = kind === '1' || kind === '2' ? `${fields[4]} ${fields[7]}` : '';
    if (kind === '2') i++; // the original path follows
    record.files.set(path, record.files.size < STAT_MAX_FILES ? `${xy} ${index} ${fingerprint(join(root, path))}` : `${xy} ${index}`);
  }
  return record;
}

function isSupervisorBranch(short: string): boolean {
  return short.startsWith('supervisor/') && (isRunId(short.slice('supervisor/'.length)) || short.startsWith('supervisor/wf/'));
}

function readBranches(refs: string): { branches: Map<string, string>; supervisorBranches: Map<string, string>; otherRefs: Map<string, string> } {
  const branches = new Map<string, string>();
  const supervisorBranches = new Map<string, string>();
  const otherRefs = new Map<string, string>();
  for (const line of refs.split('\n')) {
    const [id, name] = line.split(' ');
    if (!id || !name) continue;
    // Our own refs (a workflow's integration record) are guarded by their owner (integration-guard.ts).
    if (name.startsWith('refs/supervisor/')) continue;
    if (!name.startsWith('refs/heads/')) {
      otherRefs.set(name, id);
      continue;
    }
    const short = name.slice('refs/heads/'.length);
    (isSupervisorBranch(short) ? supervisorBranches : branches).set(short, id);
  }
  return { branches, supervisorBranches, otherRefs };
}

/**
 * The checkout as it is now. Without `before` the index file is kept rather than listed, when it
 * can be (checkout-index.ts). `before`: the record this one will be compared with; when the
 * index file is the very file it was then, its entries are not listed again (one git fewer).
 */
export async function recordCheckout(root: string, env?: GitEnv, before?: CheckoutState): Promise<CheckoutState> {
  let complete = true;
  const run = async (args: string[]) => {
    const result = await git(root, ['--no-optional-locks', ...args], env);
    if (!result.ok) complete = false;
    return result.ok ? result.stdout : `<failed: ${result.stderr.trim()}>`;
  };
  // Read whole only for the first record: the one after reads it again only if it is another file.
  const file = indexFileOf(root, before === undefined);
  const indexFile = file.fingerprint;
  const sameIndex = before !== undefined && before.complete && indexFile !== '' && indexFile === before.indexFile;
  const kept = before === undefined ? file.bytes : undefined;
  // HEAD and its branch come with the status: a workflow records the checkout around every run.
  const [entries, status, refs] = await Promise.all([
    sameIndex || kept ? null : run(['ls-files', '--stage', '-z']),
    run(['status', '--porcelain=v2', '--branch', '--no-ahead-behind', '-z', '--untracked-files=all', '--', '.', ...OWN_STATE.map((path) => `:(exclude,top)${path}`)]),
    // SECURITY I1: every ref, not only branches (a CLI's checkpoints under refs/<its own>/ count).
    run(['for-each-ref', '--format=%(objectname) %(refname)']),
  ]);
  const index = sameIndex ? before!.index : kept ? keptIndexDigest(kept) : await indexAgainst(root, env, before, entries!);
  // An index the same as before's is still only kept, not listed: a later record may need its bytes.
  const keptIndex = kept ?? (index === before?.index ? before.keptIndex : undefined);
  return {
    ...readStatus(root, status),
    index,
    indexFile,
    ...(keptIndex ? { keptIndex } : {}),
    ...readBranches(refs),
    complete,
  };
}

/**
 * Whether a status entry (porcelain letters "XY " first, then anything) is work of the user's not
 * committed: any change or untracked file but what is under `.supervisor/` untracked (run logs,
 * worktrees, roles not yet committed: supervisor's state). The one rule for a run's record and a
 * workflow's look at its checkout (worktree.ts).
 */
export function isUserWork(status: string, path: string): boolean {
  return !(status.startsWith('?? ') && path.startsWith('.supervisor/'));
}

/** Whether the checkout holds work of the user's not committed: a worktree made from HEAD starts without it, and the run says so. */
export function hasUncommittedWork(state: CheckoutState): boolean {
  for (const [path, status] of state.files) if (isUserWork(status, path)) return true;
  return false;
}

export interface CheckoutChanges {
  /** What changed in the user's checkout or branch list, one phrase each (empty: nothing). */
  changes: string[];
  /** Branches that appeared (named in `changes` too). */
  createdBranches: string[];
}

/**
 * What differs between two records. `ownBranches`: branches the run's own worktree is on
 * (a CLI that commits on a branch of its own inside its worktree): named, not counted.
 */
export function compareCheckout(before: CheckoutState, after: CheckoutState, ownBranches: string[] = []): CheckoutChanges {
  const changes: string[] = [];
  const short = (ref: string) => ref.replace(/^refs\/heads\//, '') || 'a detached HEAD';
  if (before.branch !== after.branch) changes.push(`the checkout switched from ${short(before.branch)} to ${short(after.branch)}`);
  else if (before.head !== after.head) changes.push(`HEAD moved from ${before.head.slice(0, 12)} to ${after.head.slice(0, 12)}`);
  const files = [...new Set([...before.files.keys(), ...after.files.keys()])].filter((f) => before.files.get(f) !== after.files.get(f)).sort();
  if (files.length) changes.push(`files changed: ${nameList(files, SHOWN)}`);
  if (before.index !== after.index) changes.push('the index (staged changes) changed');
  const created = [...after.branches.keys()].filter((b) => !before.branches.has(b)).sort();
  const foreign = created.filter((b) => !ownBranches.includes(b));
  if (foreign.length) changes.push(`branches created: ${nameList(foreign, SHOWN)}`);
  const moved = [...before.branches.keys()].filter((b) => after.branches.has(b) && after.branches.get(b) !== before.branches.get(b)).sort();
  if (moved.length) changes.push(`branches moved: ${nameList(moved, SHOWN)}`);
  const deleted = [...before.branches.keys()].filter((b) => !after.branches.has(b)).sort();
  if (deleted.length) changes.push(`branches deleted: ${nameList(deleted, SHOWN)}`);
  changes.push(...supervisorBranchChanges(before, after, ownBranches));
  changes.push(...otherRefChanges(before, after));
  return { changes, createdBranches: created };
}

/** Refs other than branches that appeared between two records, with the object each names (`gc` removes a CLI's checkpoints by them). */
export function createdRefs(before: CheckoutState, after: CheckoutState): { ref: string; oid: string }[] {
  return [...after.otherRefs].filter(([ref]) => !before.otherRefs.has(ref)).map(([ref, oid]) => ({ ref, oid })).sort((a, b) => a.ref.localeCompare(b.ref));
}

/** Refs other than branches created, moved or deleted (tags, a CLI's checkpoints). */
function otherRefChanges(before: CheckoutState, after: CheckoutState): string[] {
  const created = [...after.otherRefs.keys()].filter((r) => !before.otherRefs.has(r)).sort();
  const moved = [...before.otherRefs.keys()].filter((r) => after.otherRefs.has(r) && after.otherRefs.get(r) !== before.otherRefs.get(r)).sort();
  const deleted = [...before.otherRefs.keys()].filter((r) => !after.otherRefs.has(r)).sort();
  return [
    ...(created.length ? [`refs created: ${nameList(created, SHOWN)}`] : []),
    ...(moved.length ? [`refs moved: ${nameList(moved, SHOWN)}`] : []),
    ...(deleted.length ? [`refs deleted: ${nameList(deleted, SHOWN)}`] : []),
  ];
}

/** Other runs' and workflows' branches deleted, and other runs' branches moved (see the file comment). */
function supervisorBranchChanges(before: CheckoutState, after: CheckoutState, ownBranches: string[]): string[] {
  const theirs = [...before.supervisorBranches.keys()].filter((b) => !ownBranches.includes(b)).sort();
  const deleted = theirs.filter((b) => !after.supervisorBranches.has(b));
  const moved = theirs.filter((b) => !b.startsWith('supervisor/wf/') && after.supervisorBranches.has(b) && after.supervisorBranches.get(b) !== before.supervisorBranches.get(b));
  return [
    ...(deleted.length ? [`branches of other supervisor runs deleted: ${nameList(deleted, SHOWN)}`] : []),
    ...(moved.length ? [`branches of other supervisor runs moved: ${nameList(moved, SHOWN)}`] : []),
  ];
}

/**
 * One job's view of a workflow on the shared remote: what the remote holds (integration tip,
 * task state refs, result, ledger) fetched into a private namespace of this job's
 * (`refs/supervisor/fetched/<token>/`, so jobs sharing one clone never share a ref), read, and
 * dropped when the job ends. Every push is a compare-and-swap on the value fetched.
 */
import { randomBytes } from 'node:crypto';
import { dropPrivateRefs, fetchInto, firstParentTrailers, listRemoteRefs, pushWithLease, type LeasedUpdate, type PushOutcome, type RemoteGit } from '../../git/remote.ts';
import { fetchedRef, remoteRefs, TASK_TRAILER, taskTrailer } from './names.ts';

export interface RemoteSnapshot {
  /** The integration branch's tip; null: the branch does not exist yet. */
  tip: string | null;
  /** Task id → its state commit. */
  states: Map<string, string>;
  result: string | null;
  ledger: string | null;
  /** The tasks the integration branch's first-parent line holds (their trailers): task → its commit there. */
  integrated: Map<string, string>;
}

export class RemoteSession {
  readonly ctx: RemoteGit;
  readonly workflowId: string;
  /** This job attempt's own token: its fetched refs and its local workflow id. */
  readonly token: string;
  private readonly fetched = new Set<string>();

  constructor(ctx: RemoteGit, workflowId: string, token = randomBytes(4).toString('hex')) {
    this.ctx = ctx;
    this.workflowId = workflowId;
    this.token = token;
  }

  /** Everything of the workflow the remote holds now, fetched. */
  async snapshot(): Promise<RemoteSnapshot> {
    const wf = this.workflowId;
    const listed = await listRemoteRefs(this.ctx, [remoteRefs.integration(wf), `${remoteRefs.statePrefix(wf)}*`, remoteRefs.result(wf), remoteRefs.ledger(wf)]);
    const wanted = new Map<string, string>();
    for (const name of listed.keys()) {
      const ours = name === remoteRefs.integration(wf) || name === remoteRefs.result(wf) || name === remoteRefs.ledger(wf) || isStateRef(name, wf);
      if (ours) wanted.set(name, this.privateRef(name));
    }
    const got = await fetchInto(this.ctx, wanted);
    const states = new Map<string, string>();
    for (const [name, sha] of got) if (isStateRef(name, wf)) states.set(name.slice(remoteRefs.statePrefix(wf).length), sha);
    const tip = got.get(remoteRefs.integration(wf)) ?? null;
    return { tip, states, result: got.get(remoteRefs.result(wf)) ?? null, ledger: got.get(remoteRefs.ledger(wf)) ?? null, integrated: tip ? await this.integratedOn(tip) : new Map() };
  }

  /** Only the integration branch, fetched again (after a lost lease). */
  integrationTip(): Promise<string | null> {
    return this.fetchOne(remoteRefs.integration(this.workflowId));
  }

  /** One ref of the remote as it is now, fetched; null: absent. */
  async fetchOne(ref: string): Promise<string | null> {
    const listed = await listRemoteRefs(this.ctx, [ref]);
    if (!listed.has(ref)) return null;
    return (await fetchInto(this.ctx, new Map([[ref, this.privateRef(ref)]]))).get(ref) ?? null;
  }

  /** The workflow's tasks on the first-parent line of `tip` (their `Supervisor-Task: <wf>/<task>` trailers). */
  async integratedOn(tip: string): Promise<Map<string, string>> {
    const prefix = `${this.workflowId}/`;
    const found = new Map<string, string>();
    for (const { commit, value } of await firstParentTrailers(this.ctx, tip, TASK_TRAILER)) {
      if (value.startsWith(prefix) && !found.has(value.slice(prefix.length))) found.set(value.slice(prefix.length), commit);
    }
    return found;
  }

  push(updates: LeasedUpdate[]): Promise<PushOutcome> {
    return pushWithLease(this.ctx, updates);
  }

  /** The trailer value of a task of this workflow. */
  trailer(task: string): string {
    return taskTrailer(this.workflowId, task);
  }

  private privateRef(name: string): string {
    const ref = fetchedRef(this.token, name);
    this.fetched.add(ref);
    return ref;
  }

  /** Drops this job's fetched refs (the objects stay until git's own gc). */
  close(): Promise<void> {
    return dropPrivateRefs(this.ctx, this.fetched);
  }
}

/** `refs/supervisor/state/<wf>/<task>` with one more component only, a valid task id. */
function isStateRef(name: string, wf: string): boolean {
  const prefix = remoteRefs.statePrefix(wf);
  return name.startsWith(prefix) && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name.slice(prefix.length));
}

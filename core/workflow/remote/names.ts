/**
 * The names a workflow has on a shared remote (issue 29; docs: brief ci-interface): its
 * integration branch, each task's state ref, the result and the cost ledger, the trailer that
 * says a task is integrated, and the private refs one job fetches them into.
 */
import { integrationBranch } from '../engine/names.ts';

export const remoteRefs = {
  integration: (wf: string) => `refs/heads/${integrationBranch(wf)}`,
  state: (wf: string, task: string) => `refs/supervisor/state/${wf}/${task}`,
  statePrefix: (wf: string) => `refs/supervisor/state/${wf}/`,
  result: (wf: string) => `refs/supervisor/result/${wf}`,
  ledger: (wf: string) => `refs/supervisor/ledger/${wf}`,
};

/** The trailer key and value on the integration branch's commit of a task. */
export const TASK_TRAILER = 'Supervisor-Task';
export const taskTrailer = (wf: string, task: string) => `${wf}/${task}`;

/** Where one job keeps what it fetched: a namespace of its own (`token`), dropped when it ends. */
export function fetchedRef(token: string, remoteRef: string): string {
  return `refs/supervisor/fetched/${token}/${remoteRef.replace(/^refs\//, '')}`;
}

/** Ids that can be part of a ref name (the plan's checks allow more than git does in a ref). */
export function refSafeId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) && !id.includes('..') && !id.endsWith('.lock') && !id.endsWith('.');
}

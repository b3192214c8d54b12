/**
 * The cost ceiling across jobs, `refs/supervisor/ledger/<wf>`: a commit holding `ledger.json`
 * (`{ max_cost_usd, reserved: {task: usd}, spent: {task: usd} }`). A job reserves its share
 * before its task runs (refused when what is left of the ceiling is below the minimum a run
 * needs) and runs with that share as its own ceiling, so parallel jobs never spend more than the
 * ceiling together; it settles (spent added, reservation dropped) after. Both by compare-and-swap.
 * A job killed before settling leaves its reservation; the task's next job replaces it.
 */
import * as v from 'valibot';
import { SupervisorError } from '../../errors.ts';
import { remoteErrors } from '../../git/remote-errors.ts';
import { commitFiles } from '../../git/remote.ts';
import { readStateJson } from './state-json.ts';
import { sumUsd } from '../../money.ts';
import { remoteRefs } from './names.ts';
import type { RemoteSession } from './session.ts';

const usd = v.pipe(v.number(), v.minValue(0), v.maxValue(1e9));
const id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/));
export const ledgerSchema = v.strictObject({ max_cost_usd: v.nullable(usd), reserved: v.record(id, usd), spent: v.record(id, usd) });
export type LedgerFile = v.InferOutput<typeof ledgerSchema>;

const TRIES = 8;

async function readLedger(session: RemoteSession, commit: string): Promise<LedgerFile> {
  const ref = remoteRefs.ledger(session.workflowId);
  return readStateJson(session.ctx, commit, 'ledger.json', ref, ledgerSchema);
}

/** Reads the ledger, changes it with `change` (null: no write), pushes by compare-and-swap; again on a lost lease. */
async function update<T>(session: RemoteSession, change: (ledger: LedgerFile) => { next: LedgerFile; value: T } | { next: null; value: T }): Promise<T> {
  const ref = remoteRefs.ledger(session.workflowId);
  for (let tries = 1; ; tries++) {
    const current = await session.fetchOne(ref);
    const ledger = current ? await readLedger(session, current) : { max_cost_usd: null, reserved: {}, spent: {} };
    const { next, value } = change(ledger);
    if (next === null) return value;
    const commit = await commitFiles(session.ctx, { 'ledger.json': `${JSON.stringify(v.parse(ledgerSchema, next), null, 2)}\n` }, current, `supervisor: ${session.workflowId} ledger`);
    if ((await session.push([{ ref, next: commit, expected: current }])).ok) return value;
    if (tries >= TRIES) throw remoteErrors.unreachable(session.ctx.remote.given, `${ref} kept moving (${tries} tries)`);
    await new Promise((r) => setTimeout(r, 20 * tries * (0.5 + Math.random())));
  }
}

export const ledgerErrors = {
  exhausted: (wf: string, task: string, ceiling: number, left: number) =>
    new SupervisorError('REMOTE_BUDGET_EXHAUSTED', `${wf}/${task} not started: $${left.toFixed(2)} is left of the workflow's $${ceiling.toFixed(2)} ceiling (spent and reserved by its jobs)`, {
      details: { workflow_id: wf, task, ceiling_usd: ceiling, left_usd: left },
      hint: `See what was spent: git show <remote>/${remoteRefs.ledger(wf)}:ledger.json; raise it with --max-cost-usd on the jobs.`,
    }),
};

/**
 * Reserves this task's share of `ceiling` (its own ceiling for the run): what is left, at most
 * the ceiling divided by the plan's task count (at least `minRun`). Null ceiling: no ledger.
 */
export function reserve(session: RemoteSession, task: string, ceiling: number | null, taskCount: number, minRun: number): Promise<number | null> {
  if (ceiling === null) return Promise.resolve(null);
  return update(session, (ledger) => {
    const others = Object.entries(ledger.reserved).filter(([t]) => t !== task).map(([, usd]) => usd);
    const left = ceiling - sumUsd([...Object.values(ledger.spent), ...others]);
    if (left < minRun) throw ledgerErrors.exhausted(session.workflowId, task, ceiling, Math.max(0, left));
    const share = Math.min(left, Math.max(minRun, ceiling / Math.max(1, taskCount)));
    return { next: { max_cost_usd: ceiling, reserved: { ...ledger.reserved, [task]: share }, spent: ledger.spent }, value: share };
  });
}

/** Adds what the task spent and drops its reservation. */
export function settle(session: RemoteSession, task: string, spent: number): Promise<void> {
  return update(session, (ledger) => {
    const { [task]: _dropped, ...reserved } = ledger.reserved;
    return { next: { ...ledger, reserved, spent: { ...ledger.spent, [task]: sumUsd([ledger.spent[task] ?? 0, spent]) } }, value: undefined };
  });
}

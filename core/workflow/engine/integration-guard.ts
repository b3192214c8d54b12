/**
 * The engine's side of integration-ref.ts: a branch found moved or deleted is an
 * `integration_moved` event and a notice; at the end the branch is checked once more and
 * every task counted `integrated` must have its merged work in the tip, or it is `gaps` with
 * the reason, so a workflow never reports `pass` with integrated work missing.
 */
import { notice, setState, type Engine } from './context.ts';
import { allInLine, isAncestor, revParse } from './git-ops.ts';
import type { IntegrationMoved } from './integration-ref.ts';
import { mergedHeads } from './state.ts';

export function reportIntegrationMoved(engine: Engine, moved: IntegrationMoved): void {
  engine.store.append('integration_moved', { branch: moved.branch, found: moved.found, restored: moved.restored, record: moved.record });
  const what = moved.found ? `was moved to ${moved.found.slice(0, 12)}` : 'was deleted';
  notice(engine, `the integration branch ${moved.branch} ${what} by something other than the workflow engine (a CLI?); restored it to ${moved.restored.slice(0, 12)} from the engine's record ${moved.record}`);
}

/** At the end: the branch where the engine left it, and every integrated task's work in it. */
export async function guardIntegration(engine: Engine): Promise<void> {
  let tip: string | null = null;
  try {
    tip = await engine.integrationBranch.tip();
  } catch (error) {
    notice(engine, `the integration branch ${engine.integration} could not be checked or restored: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The commit each task landed as (its merge or squashed commit on the integration line).
  const heads = mergedHeads(engine.state);
  const integrated = [...engine.tasks.values()].filter((r) => r.state === 'integrated');
  const landed = integrated.map((r) => heads.get(r.task.id));
  // The common case in one git: every task's commit is in the tip (nothing reachable from them is not).
  if (tip && landed.length && landed.every((h) => h !== undefined) && (await allInLine(engine.ops, landed as string[], tip))) return;
  for (const record of integrated) {
    const head = heads.get(record.task.id) ?? (await revParse(engine.ops, `refs/heads/${record.branch}`));
    if (tip && head && (await isAncestor(engine.ops, head, tip))) continue;
    record.issues = [`the task's merged work (${head ? head.slice(0, 12) : 'its branch is gone'}) is not in the integration branch ${engine.integration} any more`];
    setState(engine, record, 'gaps', { reason: record.issues[0]! });
  }
}

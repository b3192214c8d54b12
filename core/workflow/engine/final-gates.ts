/**
 * The gates' verdict on the integration branch's final tip. A tip the gates passed (as a
 * candidate in the merge queue, or after a merge with `gates_on: end`) is known from the event
 * log; any other tip — gates interrupted by a kill, a resume — has them run again before the
 * workflow can be `pass`.
 */
import type { Engine } from './context.ts';
import { runGatesOnIntegration } from './integration-gates.ts';

/** Runs the gates on the final tip unless their verdict on it is known (and the workflow was not halted). */
export async function finalGates(engine: Engine): Promise<void> {
  if (!engine.workflow.gates.length || engine.halt || engine.options.signal?.aborted) return;
  // Checked against the engine's record (restored when a CLI moved it): the gates judge the workflow's tip, not a CLI's.
  const tip = await engine.integrationBranch.tip();
  if (tip === engine.base && ![...engine.tasks.values()].every((r) => r.state === 'integrated')) return;
  if (engine.state.gates.tip === tip && engine.state.gates.passed !== null) return;
  await runGatesOnIntegration(engine, tip);
}

/** Errors of a workflow on a shared remote (stable codes; exit 2 unless said). */
import { SupervisorError } from '../../errors.ts';

export const remoteWorkflowErrors = {
  unknownTask: (wf: string, task: string, known: string[]) =>
    new SupervisorError('WORKFLOW_TASK_UNKNOWN', `the plan of ${wf} has no task "${task}"`, { details: { workflow_id: wf, task, known }, hint: `Its tasks: ${known.join(', ')}` }),
  planChanged: (file: string, pinned: string, actual: string) =>
    new SupervisorError('PLAN_CHANGED', `the plan ${file} is not the one this pipeline was exported from (its sha256 is ${actual}, the pipeline pins ${pinned})`, {
      details: { file, pinned, actual },
      hint: 'Export the pipeline again from the plan as it is now (supervisor workflow export), and commit both.',
    }),
  planMismatch: (given: string, planId: string) =>
    new SupervisorError('PLAN_MISMATCH', `the workflow id "${given}" is not the plan's id "${planId}"`, { details: { given, plan_id: planId }, hint: `Give the plan's id: supervisor workflow task ${planId} ...` }),
  dependencies: (wf: string, task: string, missing: string[]) =>
    new SupervisorError('REMOTE_DEPENDENCIES_MISSING', `${task} depends on ${missing.join(', ')}, not integrated on the remote's supervisor/wf/${wf} yet`, {
      details: { workflow_id: wf, task, missing },
      hint: `Run those tasks first (in CI, needs: orders the jobs): supervisor workflow task ${wf} ${missing[0]} --remote ...`,
    }),
};

/**
 * The workflow's result on the remote, `refs/supervisor/result/<wf>`: a commit holding
 * `result.json` (`{ workflow_id, status, exit_code, integration_commit, tasks }`), written by
 * the final step by compare-and-swap; read back as untrusted data (SECURITY I7).
 */
import * as v from 'valibot';
import { remoteErrors } from '../../git/remote-errors.ts';
import { commitFiles, type RemoteGit } from '../../git/remote.ts';
import { readStateJson } from './state-json.ts';
import { REMOTE_TASK_STATUSES } from './task-state.ts';

const sha = v.pipe(v.string(), v.regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/));
const id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/));

export const REMOTE_WORKFLOW_STATUSES = ['pass', 'gaps', 'awaiting_approval', 'interrupted', 'stopped'] as const;

export const resultSchema = v.strictObject({
  workflow_id: id,
  status: v.picklist(REMOTE_WORKFLOW_STATUSES),
  exit_code: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255)),
  integration_commit: v.nullable(sha),
  tasks: v.record(id, v.picklist([...REMOTE_TASK_STATUSES, 'pending'])),
  /** The gates' verdict on integration_commit: null when there are none or they did not run. */
  gates_passed: v.optional(v.nullable(v.boolean())),
  updated_at: v.optional(v.pipe(v.string(), v.isoTimestamp())),
});
export type RemoteWorkflowResult = v.InferOutput<typeof resultSchema>;

export async function readResult(ctx: Pick<RemoteGit, 'repoRoot' | 'env'>, commit: string, ref: string, workflowId: string): Promise<RemoteWorkflowResult> {
  const result = await readStateJson(ctx, commit, 'result.json', ref, resultSchema);
  if (result.workflow_id !== workflowId) throw remoteErrors.stateInvalid(ref, 'result.json workflow_id', `is ${result.workflow_id}, not ${workflowId}`);
  return result;
}

export function writeResult(ctx: Pick<RemoteGit, 'repoRoot' | 'env'>, result: RemoteWorkflowResult, parent: string | null): Promise<string> {
  const checked = v.parse(resultSchema, result);
  return commitFiles(ctx, { 'result.json': `${JSON.stringify(checked, null, 2)}\n` }, parent, `supervisor: ${result.workflow_id} ${result.status}`);
}

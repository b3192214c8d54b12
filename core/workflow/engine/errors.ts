/** The workflow engine's errors (stable codes; exit 2 unless the code says otherwise). */
import { SupervisorError } from '../../errors.ts';
import { nameList } from '../../text/name-list.ts';

export const engineErrors = {
  unfinished: (id: string, file: string) =>
    new SupervisorError('WORKFLOW_UNFINISHED', `An unfinished run of this workflow exists: ${id} (from ${file})`, {
      details: { workflow_id: id, file },
      hint: `Continue it with: supervisor workflow resume ${id}   (see: supervisor workflow status ${id})`,
    }),
  notFound: (id: string, known: string[]) =>
    new SupervisorError('WORKFLOW_NOT_FOUND', `No workflow "${id}" in this repository`, {
      details: { workflow_id: id, known },
      hint: known.length ? `Known workflows: ${nameList(known, 5)} (see: supervisor workflow list)` : 'No workflow has run in this repository yet.',
    }),
  ambiguous: (query: string, matches: string[]) =>
    new SupervisorError('WORKFLOW_AMBIGUOUS', `"${query}" names more than one workflow: ${matches.slice(0, 5).join(', ')}${matches.length > 5 ? ', ...' : ''}`, {
      details: { query, matches },
      hint: 'Give more of the id (see: supervisor workflow list).',
    }),
  finished: (id: string, status: string) =>
    new SupervisorError('WORKFLOW_FINISHED', `The workflow ${id} has finished (${status}); there is nothing to resume`, {
      details: { workflow_id: id, status },
      hint: 'Run the plan again with: supervisor workflow run <file> (a new run gets a new id).',
    }),
  busy: (id: string, pid: number) =>
    new SupervisorError('WORKFLOW_BUSY', `The workflow ${id} is running now (process ${pid} holds its lock)`, {
      details: { workflow_id: id, pid },
      hint: 'Wait for it to finish, or stop it (Ctrl-C) before resuming.',
    }),
  retryTask: (id: string, task: string, problem: string, known: string[]) =>
    new SupervisorError('WORKFLOW_RETRY_TASK', `workflow retry ${id} ${task}: ${problem}`, {
      details: { workflow_id: id, task, known },
      hint: known.length ? `Tasks that can be retried: ${known.join(', ')}` : 'Every task is integrated: there is nothing to retry.',
    }),
  nothingToRetry: (id: string) =>
    new SupervisorError('WORKFLOW_NOTHING_TO_RETRY', `The workflow ${id} has no task that ended error, gaps, blocked or skipped`, {
      details: { workflow_id: id },
      hint: `See: supervisor workflow status ${id}`,
    }),
  unfinishedRetry: (id: string) =>
    new SupervisorError('WORKFLOW_UNFINISHED', `The workflow ${id} has not finished (it was killed, or is still running)`, {
      details: { workflow_id: id },
      hint: `Continue it with: supervisor workflow resume ${id}`,
    }),
  taskNotFound: (id: string, task: string, known: string[]) =>
    new SupervisorError('WORKFLOW_TASK_NOT_FOUND', `The workflow ${id} has no task "${task}"`, {
      details: { workflow_id: id, task, known },
      hint: `Its tasks: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', ...' : ''}`,
    }),
  notAwaiting: (id: string, task: string, state: string, waiting: string[]) =>
    new SupervisorError('WORKFLOW_TASK_NOT_AWAITING', `The task ${task} of ${id} is not waiting for approval (it is ${state})`, {
      details: { workflow_id: id, task, state, awaiting: waiting },
      hint: waiting.length ? `Waiting for approval: ${waiting.join(', ')}` : 'No task of this workflow waits for approval (see: supervisor workflow status).',
    }),
  rejectWithoutIssues: (id: string) =>
    new SupervisorError('USAGE', `workflow reject ${id}: give the issues the worker should fix: --issues "<text>" or --issues @file`, { details: { workflow_id: id } }),
  /** A state file of one workflow that cannot be read back: only that workflow is affected. */
  corrupt: (id: string, file: string, problem: string) =>
    new SupervisorError('WORKFLOW_CORRUPT', `The workflow ${id}'s state is corrupt: ${file}: ${problem}`, {
      details: { workflow_id: id, file, problem },
      hint: `Other workflows are not affected. Look at the file, or remove the folder ${file.slice(0, file.lastIndexOf('/'))} and its branches (supervisor/wf/${id}*) to forget this workflow.`,
    }),
  /** The engine was about to write an event its own schema refuses: a bug of ours, stopped before it reaches the record. */
  badEvent: (id: string, problem: string) =>
    new SupervisorError('WORKFLOW_BAD_EVENT', `The workflow ${id}'s engine tried to record an event that is not well-formed: ${problem}`, {
      details: { workflow_id: id, problem },
      hint: 'This is a bug in supervisor; please report it with the command you ran.',
    }),
  badCliOption: (value: string) =>
    new SupervisorError('USAGE', `--cli ${value}: give an adapter name, or ROLE=NAME`, { details: { value } }),
  /** Every compare-and-swap push to the shared remote lost its lease: other jobs keep moving the branch. */
  remoteContended: (branch: string, retries: number) =>
    new SupervisorError('REMOTE_CONTENDED', `the remote's ${branch} kept moving: ${retries} compare-and-swap retries lost their lease`, {
      details: { branch, retries },
      hint: 'Run the job again: the task is integrated at most once, and a re-run after it landed exits 0 at once.',
    }),
};

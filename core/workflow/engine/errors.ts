/** The workflow engine's errors (stable codes; exit 2 unless the code says otherwise). */
import { SupervisorError } from '../../errors.ts';

export const engineErrors = {
  unfinished: (id: string, file: string) =>
    new SupervisorError('WORKFLOW_UNFINISHED', `An unfinished run of this workflow exists: ${id} (from ${file})`, {
      details: { workflow_id: id, file },
      hint: `Continue it with: supervisor workflow resume ${id}   (see: supervisor workflow status ${id})`,
    }),
  notFound: (id: string, known: string[]) =>
    new SupervisorError('WORKFLOW_NOT_FOUND', `No workflow "${id}" in this repository`, {
      details: { workflow_id: id, known },
      hint: known.length ? `Known workflows: ${known.slice(0, 5).join(', ')} (see: supervisor workflow list)` : 'No workflow has run in this repository yet.',
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
    new SupervisorError('WORKFLOW_BUSY', `The workflow ${id} is running now (process ${pid})`, {
      details: { workflow_id: id, pid },
      hint: 'Wait for it to finish, or stop it (Ctrl-C) before resuming.',
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
  untrustedHooks: (shown: string, file: string, hooks: string[], repoRoot: string) =>
    new SupervisorError('WORKFLOW_UNTRUSTED_HOOKS', `The plan ${shown} runs on_event commands (${hooks.map((h) => JSON.stringify(h)).join(', ')}), and this repository is not trusted to run its own commands`, {
      details: { file, on_event: hooks },
      hint: `Read them, then trust the repository: supervisor trust ${repoRoot} (or --trust for one run).`,
    }),
  badCliOption: (value: string) =>
    new SupervisorError('USAGE', `--cli ${value}: give an adapter name, or ROLE=NAME`, { details: { value } }),
};

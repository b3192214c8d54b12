/** The checks before a workflow spends: WORKFLOW_PREFLIGHT (exit 2), naming task, role and CLI of each problem. */
import { SupervisorError } from '../errors.ts';

/** One problem of one run the plan will make. */
export interface PreflightProblem {
  task: string;
  role: string;
  cli: string | null;
  message: string;
}

export function describePreflightProblem(p: PreflightProblem): string {
  return `task "${p.task}", role ${p.role}${p.cli ? `, CLI ${p.cli}` : ''}: ${p.message}`;
}

export const preflightErrors = {
  failed: (file: string, problems: PreflightProblem[]) => {
    const first = problems[0]!;
    const message = problems.length === 1
      ? `The workflow ${file} cannot start: ${describePreflightProblem(first)}`
      : `The workflow ${file} cannot start (${problems.length} problems):\n${problems.map((p) => `  ${describePreflightProblem(p)}`).join('\n')}`;
    return new SupervisorError('WORKFLOW_PREFLIGHT', message, {
      details: { file, task: first.task, role: first.role, cli: first.cli, problems },
      hint: 'Nothing was started. Install the CLI, choose another one (--cli ROLE=NAME, the plan\'s cli or models), or fix the role; `supervisor workflow check <file>` checks again; `supervisor doctor` lists the CLIs and sandboxes.',
    });
  },
};

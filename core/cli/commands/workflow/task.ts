/**
 * `supervisor workflow task <workflow-id> [<task-id>] --plan <file> --remote <name|url>`: what
 * one CI job runs (issue 29): one task of the plan, integrated into the remote's
 * supervisor/wf/<id> by compare-and-swap; `--final`: the last job (every task integrated? the
 * final gates on the tip, the result written to the remote).
 */
import { fromCliContext } from '../../../command/app-deps.ts';
import type { Args } from '../../../command/command.ts';
import { defineCommand } from '../../../command/command.ts';
import type { CliContext } from '../../../command/context.ts';
import { flagArg, stringArg } from '../../../command/read-args.ts';
import { READER_OPTION } from '../../../command/workflow-arg.ts';
import { driveInputFromArgs, driveOptions } from '../../../command/workflow-drive.ts';
import type { RemoteHooks, RemoteTaskCommandInput } from '../../../app/workflow-remote.ts';
import { sanitizeTerminal } from '../../../text/sanitize-terminal.ts';

/** argv → the remote task use case's input. */
export function remoteTaskInput(args: Args): RemoteTaskCommandInput {
  const task = stringArg(args, 'task');
  const reader = stringArg(args, 'reader');
  const base = stringArg(args, 'base');
  const pin = stringArg(args, 'plan-sha256');
  return {
    ...driveInputFromArgs(args),
    workflowId: stringArg(args, 'id') ?? '',
    file: stringArg(args, 'plan') ?? '',
    remote: stringArg(args, 'remote') ?? '',
    final: flagArg(args, 'final'),
    ...(task === undefined ? {} : { taskId: task }),
    ...(reader === undefined ? {} : { reader }),
    ...(base === undefined ? {} : { base }),
    ...(pin === undefined ? {} : { planSha256: pin }),
  };
}

/** Runs remote work with Ctrl-C and progress wired; prints the result (JSON, or its lines); returns its exit code. */
export async function driveRemote<T extends { exit_code: number }>(ctx: CliContext, taskIds: string[], start: (hooks: RemoteHooks) => Promise<T>, render: (result: T) => string): Promise<number> {
  const { createProgressView } = await import('../../../workflow/engine/progress.ts');
  const view = createProgressView((text) => void ctx.deps.stderr.write(text), ctx.deps.stderr.isTTY === true, taskIds);
  const controller = new AbortController();
  const stopListening = ctx.deps.onInterrupt((signal?: unknown) => {
    if (!controller.signal.aborted) ctx.warn('interrupt: ending every run; the task is recorded interrupted on the remote (run the job again to continue)');
    controller.abort(typeof signal === 'string' ? signal : 'SIGINT');
  });
  let result: T;
  try {
    result = await start({ signal: controller.signal, onProgress: (event) => view.update(event), onNotice: (message) => view.note(`notice: ${message}`) });
  } finally {
    view.stop();
    stopListening();
  }
  if (ctx.options.json) ctx.out(JSON.stringify(result, null, 2));
  else ctx.show(render(result));
  return result.exit_code;
}

function renderResult(result: Record<string, unknown>): string {
  if ('task_id' in result) {
    const r = result as { workflow_id: string; task_id: string; status: string; integrated_commit: string | null; cas_retries: number; reason: string | null; remote: string };
    const at = r.integrated_commit ? ` at ${r.integrated_commit.slice(0, 7)}` : '';
    return sanitizeTerminal(`${r.workflow_id}/${r.task_id} on ${r.remote}: ${r.status}${at}${r.cas_retries ? ` (${r.cas_retries} compare-and-swap retr${r.cas_retries === 1 ? 'y' : 'ies'})` : ''}${r.reason ? `\n  ${r.reason}` : ''}\n`);
  }
  const r = result as { workflow_id: string; status: string; integration_commit: string | null; missing: string[]; unchanged: boolean; remote: string };
  return sanitizeTerminal(`${r.workflow_id} on ${r.remote}: ${r.status}${r.integration_commit ? ` at ${r.integration_commit.slice(0, 7)}` : ''}${r.missing.length ? `\n  not integrated: ${r.missing.join(', ')}` : ''}${r.unchanged ? '\n  (result already written for this tip: nothing ran)' : ''}\n`);
}

export default defineCommand({
  command: 'task <id> [task]',
  describe: "Run one task of a plan here and integrate it into a shared remote's supervisor/wf/<id> by compare-and-swap (what each CI job runs); --final: the last job, the final gates and the result",
  example: { command: '$0 workflow task my-plan-1a2b3c api --plan plan.yaml --remote origin', describe: 'run task api here and push it into origin' },
  builder: (y) =>
    driveOptions(
      y
        .positional('id', { type: 'string', describe: "The workflow id (the plan's id)" })
        .positional('task', { type: 'string', describe: 'The task to run (omit with --final)' })
        .option('plan', { type: 'string', demandOption: true, describe: 'The plan file' })
        .option('remote', { type: 'string', demandOption: true, describe: 'A remote of this clone, or a URL or path: it holds the integration branch and the state' })
        .option('final', { type: 'boolean', default: false, describe: 'The last job: every task integrated? the final gates on the tip; the result written to the remote' })
        .option('plan-sha256', { type: 'string', describe: 'Refuse (PLAN_CHANGED) a plan file whose bytes do not hash to this' })
        .option('base', { type: 'string', describe: "Where a missing integration branch starts (default: the plan's base, else HEAD)" })
        .option('reader', READER_OPTION),
    ),
  async run(args, ctx) {
    const { prepareRemoteTask } = await import('../../../app/workflow-remote.ts');
    const prepared = await prepareRemoteTask(remoteTaskInput(args), fromCliContext(ctx));
    return driveRemote(ctx, prepared.taskIds, (hooks) => prepared.start(hooks), (r) => renderResult(r as unknown as Record<string, unknown>));
  },
});

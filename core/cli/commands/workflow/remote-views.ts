/**
 * `workflow status|show|logs <id> --remote <name|url>`: the workflow as the shared remote holds
 * it (issue 29), from any clone: its tasks' state refs, the integration branch, the result.
 */
import type { Argv } from 'yargs';
import { fromCliContext } from '../../../command/app-deps.ts';
import type { Args } from '../../../command/command.ts';
import type { CliContext } from '../../../command/context.ts';
import { errors } from '../../../errors.ts';
import { stringArg } from '../../../command/read-args.ts';
import { sanitizeTerminal } from '../../../text/sanitize-terminal.ts';

export function remoteOption(y: Argv): Argv {
  return y.option('remote', { type: 'string', describe: 'Read the workflow from this remote (a remote of this clone, a URL or a path): its state as CI jobs wrote it (workflow task --remote)' });
}

async function view(args: Args, ctx: CliContext) {
  const id = stringArg(args, 'id');
  if (!id) throw errors.usage('--remote needs the workflow id (the plan\'s id)');
  const { remoteWorkflowView } = await import('../../../app/workflow-remote.ts');
  return remoteWorkflowView({ workflowId: id, remote: stringArg(args, 'remote')! }, fromCliContext(ctx));
}

export async function remoteStatus(args: Args, ctx: CliContext): Promise<number> {
  const found = await view(args, ctx);
  const { renderRemoteWorkflow } = await import('../../../workflow/remote/remote-view.ts');
  // The events are logs' and show's; the status is the tasks' state files.
  const shown = { ...found, tasks: found.tasks.map(({ events: _e, ...t }) => t) };
  if (ctx.options.json) ctx.out(JSON.stringify(shown, null, 2));
  else ctx.show(sanitizeTerminal(renderRemoteWorkflow(found)));
  return 0;
}

/** One task (or every task): its state file and its events. */
export async function remoteShow(args: Args, ctx: CliContext): Promise<number> {
  const found = await view(args, ctx);
  const task = stringArg(args, 'task');
  const tasks = found.tasks.filter((t) => task === undefined || t.id === task);
  if (task !== undefined && !tasks.length) throw errors.usage(`the remote holds no state of task "${task}" of ${found.workflow_id}`);
  if (ctx.options.json) ctx.out(JSON.stringify({ workflow_id: found.workflow_id, status: found.status, tip: found.tip, tasks }, null, 2));
  else for (const t of tasks) ctx.show(sanitizeTerminal(`${t.id}: ${t.status}\n${JSON.stringify(t.state, null, 2)}\n`));
  return 0;
}

/** Every task's events (one task's with <task>), one line each, oldest first per task. */
export async function remoteLogs(args: Args, ctx: CliContext): Promise<number> {
  const found = await view(args, ctx);
  const task = stringArg(args, 'task');
  for (const t of found.tasks) {
    if (task !== undefined && t.id !== task) continue;
    for (const event of t.events) {
      if (ctx.options.json) ctx.out(JSON.stringify({ task: t.id, ...event }));
      else ctx.show(sanitizeTerminal(`[${t.id}] ${event.ts} ${event.kind}${'state' in event ? ` ${String(event.state)}` : ''}${'reason' in event && event.reason ? `: ${String(event.reason)}` : ''}\n`));
    }
  }
  return 0;
}

/** `supervisor workflow resume <wf> --remote <name|url> --plan <file>`: the remote's workflow finished here. */
import { fromCliContext } from '../../../command/app-deps.ts';
import type { Args } from '../../../command/command.ts';
import type { CliContext } from '../../../command/context.ts';
import { stringArg } from '../../../command/read-args.ts';
import { errors } from '../../../errors.ts';
import { sanitizeTerminal } from '../../../text/sanitize-terminal.ts';
import { driveRemote, remoteTaskInput } from './task.ts';

export async function remoteResume(args: Args, ctx: CliContext): Promise<number> {
  if (stringArg(args, 'id') === undefined) throw errors.usage("workflow resume --remote needs the workflow id (the plan's id)");
  if (stringArg(args, 'plan') === undefined) throw errors.usage('workflow resume --remote needs --plan <file>: the plan the jobs run');
  const { prepareRemoteResume } = await import('../../../app/workflow-remote.ts');
  const { taskId: _task, final: _final, ...input } = remoteTaskInput(args);
  const prepared = await prepareRemoteResume(input, fromCliContext(ctx));
  return driveRemote(ctx, prepared.taskIds, (hooks) => prepared.start(hooks), (r) =>
    sanitizeTerminal(`${r.workflow_id} on ${r.remote}: ${r.final.status}\n${r.tasks.map((t) => `  ${t.task_id}: ${t.status}${t.reason ? ` (${t.reason})` : ''}`).join('\n')}${r.skipped.length ? `\n  skipped (a dependency did not integrate): ${r.skipped.join(', ')}` : ''}\n`),
  );
}

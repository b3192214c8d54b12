/** What `workflow approve` and `workflow reject` share: argv → the decide use case's input, then continue (as resume) unless --no-resume. */
import { fromCliContext } from '../command/app-deps.ts';
import { errors } from '../errors.ts';
import type { Args } from '../command/command.ts';
import type { CliContext } from '../command/context.ts';
import { listArg, onUnlessNo, stringArg } from '../command/read-args.ts';
import { driveInputFromArgs, driveWorkflow } from '../command/workflow-drive.ts';

export async function decide(args: Args, ctx: CliContext, decision: 'approved' | 'rejected'): Promise<number> {
  const id = stringArg(args, 'id') ?? '';
  const tasks = listArg(args, 'tasks');
  const verb = decision === 'approved' ? 'approve' : 'reject';
  if (!tasks.length) throw errors.usage(`workflow ${verb} needs the ids of the tasks to ${verb}`, `e.g. supervisor workflow ${verb} ${id} <task>`);
  let issues: string[] = [];
  if (decision === 'rejected') {
    const given = stringArg(args, 'issues');
    if (given === undefined) throw errors.usage(`workflow reject needs --issues: what the worker must fix (text, @file or -)`, `e.g. supervisor workflow reject ${id} ${tasks[0]} --issues "handle empty input"`);
    const { readTextArg } = await import('../command/text-arg.ts');
    issues = (await readTextArg(given, ctx.deps, 'issues')).split('\n').map((l) => l.replace(/^\s*[-*]\s+/, '').trim()).filter(Boolean);
  }
  const { osUser } = await import('../workflow/engine/approval.ts');
  const { workflowDecide } = await import('../app/workflow-continue.ts');
  const decided = await workflowDecide({ ...driveInputFromArgs(args), id, tasks, decision, issues, by: osUser(ctx.deps.env), resume: onUnlessNo(args, 'resume') }, fromCliContext(ctx));
  ctx.warn(`${decision} by ${decided.by}: ${tasks.join(', ')} (workflow ${decided.workflow_id})`);
  if (decided.next) return driveWorkflow(ctx, decided.next);
  const { next: _next, ...shown } = decided;
  if (ctx.options.json) ctx.out(JSON.stringify(shown, null, 2));
  else ctx.out(`Recorded. Continue with: supervisor workflow resume ${decided.workflow_id}\n`);
  return 0;
}

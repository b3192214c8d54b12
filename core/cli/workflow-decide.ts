/** What `workflow approve` and `workflow reject` share: record the decision, then continue (as resume) unless --no-resume. */
import { errors } from '../errors.ts';
import type { Args } from '../command/command.ts';
import type { CliContext } from '../command/context.ts';
import { resumeById } from '../command/workflow-drive.ts';

export async function decide(args: Args, ctx: CliContext, decision: 'approved' | 'rejected'): Promise<number> {
  const { resolveWorkflowId } = await import('../workflow/engine/workflow-id.ts');
  const { decideTasks, osUser } = await import('../workflow/engine/approval.ts');
  const id = resolveWorkflowId(ctx.repoRoot, String(args.id));
  const tasks = ((args.tasks as unknown[] | undefined) ?? []).map(String);
  const verb = decision === 'approved' ? 'approve' : 'reject';
  if (!tasks.length) throw errors.usage(`workflow ${verb} needs the ids of the tasks to ${verb}`, `e.g. supervisor workflow ${verb} ${id} <task>`);
  let issues: string[] = [];
  if (decision === 'rejected') {
    if (typeof args.issues !== 'string') throw errors.usage(`workflow reject needs --issues: what the worker must fix (text, @file or -)`, `e.g. supervisor workflow reject ${id} ${tasks[0]} --issues "handle empty input"`);
    const { readTextArg } = await import('../command/text-arg.ts');
    issues = (await readTextArg(args.issues, ctx.deps, 'issues')).split('\n').map((l) => l.replace(/^\s*[-*]\s+/, '').trim()).filter(Boolean);
  }
  const by = osUser(ctx.deps.env);
  decideTasks(ctx.repoRoot, id, tasks, { decision, by, issues });
  ctx.warn(`${decision} by ${by}: ${tasks.join(', ')} (workflow ${id})`);
  if (args.resume !== false) return resumeById(ctx, args, id);
  if (ctx.options.json) ctx.out(JSON.stringify({ workflow_id: id, decision, by, tasks, issues }, null, 2));
  else ctx.out(`Recorded. Continue with: supervisor workflow resume ${id}\n`);
  return 0;
}

/** `supervisor workflow logs [<id>] [<task>] [-f]`: the runs' output, interleaved, each line tagged with task and role. */
import { defineCommand } from '../../../command/command.ts';
import { followUntilEnd } from '../../follow.ts';

const POLL_MS = 250;

export default defineCommand({
  command: 'logs [id] [task]',
  describe: "The output of a workflow's runs, interleaved, each line tagged [task role]; -f follows new runs as they start until the workflow ends",
  example: { command: '$0 workflow logs last -f', describe: 'follow the output of every run of the newest workflow' },
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last (default: the newest)' })
      .positional('task', { type: 'string', describe: 'Only this task' })
      .option('follow', { alias: 'f', type: 'boolean', default: false, describe: 'Keep following (new runs too) until the workflow ends, or Ctrl-C' }),
  async run(args, ctx) {
    const { resolveWorkflowId } = await import('../../../workflow/engine/workflow-id.ts');
    const { WorkflowLogFollower, renderLogLine } = await import('../../../runs/workflow-logs.ts');
    const { describeLoggedEvent } = await import('../../../runs/render.ts');
    const id = resolveWorkflowId(ctx.repoRoot, typeof args.id === 'string' ? args.id : undefined);
    const { WorkflowStore } = await import('../../../workflow/engine/store.ts');
    const { engineErrors } = await import('../../../workflow/engine/errors.ts');
    const tasks = new WorkflowStore(ctx.repoRoot, id).plan().tasks.map((t) => t.id);
    const task = typeof args.task === 'string' ? args.task : undefined;
    if (task !== undefined && !tasks.includes(task)) throw engineErrors.taskNotFound(id, task, tasks);
    const follower = new WorkflowLogFollower(ctx.repoRoot, id, { ...(task ? { task } : {}), describe: (item) => describeLoggedEvent(item.event) || null });
    const plan = new WorkflowStore(ctx.repoRoot, id).plan();
    const width = Math.min(48, Math.max(...plan.tasks.map((t) => t.id.length + Math.max(t.worker.length, ...t.reviewers.map((r) => r.length)) + 3)));
    const print = (lines: ReturnType<typeof follower.poll>) => {
      for (const line of lines) {
        if (ctx.options.json) ctx.out(JSON.stringify(line));
        else ctx.show(renderLogLine(line, width));
      }
    };
    if (!args.follow) {
      print(follower.poll(true));
      return 0;
    }
    return followUntilEnd(follower, { pollMs: POLL_MS, onInterrupt: ctx.deps.onInterrupt, print, writing: () => follower.running() });
  },
});

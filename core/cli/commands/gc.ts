/** `supervisor gc`: removes old run folders, worktrees of finished runs, and merged `supervisor/*` branches. */
import { fromCliContext } from '../../command/app-deps.ts';
import { DEFAULT_GC_AGE as DEFAULT_AGE, type GcInput } from '../../app/gc.ts';
import type { GcReport } from '../../runs/gc.ts';
import { defineCommand, type Args } from '../../command/command.ts';
import { flagArg, stringArg } from '../../command/read-args.ts';

/** argv → the gc use case's input. */
export function gcInput(args: Args): GcInput {
  const olderThan = stringArg(args, 'older-than');
  return { ...(olderThan === undefined ? {} : { olderThan }), dryRun: flagArg(args, 'dry-run'), includeUnmerged: flagArg(args, 'include-unmerged'), includeWorkflows: flagArg(args, 'include-workflows'), includeKept: flagArg(args, 'include-kept') };
}

function renderGc(report: GcReport): string {
  const verb = report.dry_run ? 'would remove' : 'removed';
  const lines = report.removed.map((item) => `${verb} ${item.kind} ${item.name} (${item.reason})`);
  lines.push(...report.kept.map((item) => `kept ${item.kind} ${item.name}: ${item.reason}`));
  const count = (kind: string) => report.removed.filter((i) => i.kind === kind).length;
  const workflows = count('workflow') ? `${count('workflow')} workflow(s), ` : '';
  lines.push(`${report.dry_run ? 'dry run: nothing removed; would remove' : 'removed'} ${workflows}${count('run')} run folder(s), ${count('worktree')} worktree(s), ${count('branch')} branch(es)`);
  return lines.join('\n');
}

export default defineCommand({
  command: 'gc',
  describe: 'Remove old run folders, worktrees of runs that are over, and merged supervisor/* branches',
  example: { command: '$0 gc --older-than 7d --dry-run', describe: 'what a clean-up of runs older than a week would remove' },
  builder: (y) =>
    y
      .option('older-than', { type: 'string', describe: `Age of run folders (and unmerged branches, with --include-unmerged) to remove: 12h, 7d, 2w (default ${DEFAULT_AGE})` })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Print what would be removed; remove nothing' })
      .option('include-unmerged', { type: 'boolean', default: false, describe: 'Also delete old branches with unmerged work and worktrees with uncommitted changes' })
      .option('include-workflows', { type: 'boolean', default: false, describe: 'Also remove finished workflows whose work is on a branch of yours (merged, or handed on by workflow finish): their branches, worktrees, runs and state; others are kept and say why (supervisor workflow discard <id> removes one)' })
      .option('include-kept', { type: 'boolean', default: false, describe: 'Also remove worktrees a run kept on purpose (run --keep-worktree)' }),
  async run(args, ctx) {
    const { gc } = await import('../../app/gc.ts');
    const report = await gc(gcInput(args), fromCliContext(ctx));
    if (ctx.options.json) ctx.out(JSON.stringify(report, null, 2));
    else ctx.show(renderGc(report));
    return 0;
  },
});

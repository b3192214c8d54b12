/**
 * `supervisor runs tail <run-id|last> [-f]`: a run's events and its CLI's output so far; with
 * -f, keeps following until the run finishes (or its process is gone, or Ctrl-C).
 */
import { EXIT } from '../../errors.ts';
import type { FollowItem } from '../../runs/run-follow.ts';
import { fromCliContext } from '../../command/app-deps.ts';
import { defineCommand, type Args } from '../../command/command.ts';
import { flagArg, stringArg } from '../../command/read-args.ts';
import { followUntilEnd } from '../follow.ts';

const POLL_MS = 200;

/** The run id positional (yargs gives it as run-id and runId). */
export function runIdInput(args: Args): { id: string } {
  return { id: stringArg(args, 'run-id') ?? stringArg(args, 'runId') ?? '' };
}

function renderItem(item: FollowItem, describe: (e: FollowItem & { kind: 'event' }) => string): string {
  if (item.kind === 'event') return describe(item);
  const tag = `[${item.attempt} ${item.stream === 'stdout' ? 'out' : 'err'}]`;
  return item.text
    .split('\n')
    .map((line) => `${tag} ${line}`)
    .join('\n');
}

export default defineCommand({
  command: 'tail <run-id>',
  describe: 'Show a run\'s events and its CLI\'s output as they arrive (a run id, a unique part of one, or "last"); -f follows it',
  example: { command: '$0 runs tail last -f', describe: "follow the newest run's events and CLI output until it ends" },
  builder: (y) =>
    y
      .positional('run-id', { type: 'string' })
      .option('follow', { alias: 'f', type: 'boolean', default: false, describe: 'Keep following until the run finishes (or Ctrl-C)' }),
  async run(args, ctx) {
    const { runsTail } = await import('../../app/runs.ts');
    const { describeLoggedEvent } = await import('../../runs/render.ts');
    const { follower, writing } = await runsTail(runIdInput(args), fromCliContext(ctx));
    const print = (items: FollowItem[]) => {
      for (const item of items) {
        if (ctx.options.json) ctx.out(JSON.stringify(item.kind === 'event' ? item.event : { kind: 'output', attempt: item.attempt, stream: item.stream, text: item.text }));
        else ctx.show(renderItem(item, (e) => `${e.event.ts.slice(11, 23)}  ${describeLoggedEvent(e.event)}`));
      }
    };
    if (!flagArg(args, 'follow')) {
      print(follower.poll(true));
      return 0;
    }
    const code = await followUntilEnd(follower, { pollMs: POLL_MS, onInterrupt: ctx.deps.onInterrupt, print, writing, ended: () => follower.finished });
    if (code === EXIT.ok && !follower.finished) ctx.warn('notice: the run\'s process is gone and the run did not finish (incomplete)');
    return code;
  },
});

/** `supervisor workflow status [<id>] [--watch]`: a workflow's tasks and state (default: the newest). */
import { setTimeout as sleep } from 'node:timers/promises';
import { fromCliContext } from '../../../command/app-deps.ts';
import { defineCommand } from '../../../command/command.ts';
import { flagArg, stringArg } from '../../../command/read-args.ts';
import type { CliContext } from '../../../command/context.ts';
import { numberOption, positive } from '../../../command/numbers.ts';
import { remoteOption } from './remote-views.ts';

export default defineCommand({
  command: 'status [id]',
  describe: "A workflow's status and its tasks' states: what runs now (role, CLI, round, run id), cost, why a task is where it is (default: the newest workflow)",
  example: { command: '$0 workflow status --watch', describe: 'watch the newest workflow until it ends' },
  builder: (y) =>
    remoteOption(
      numberOption(
        y
          .positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last (default: the newest)' })
          .option('watch', { alias: 'w', type: 'boolean', default: false, describe: 'Redraw until the workflow ends (on a terminal; otherwise print each change)' }),
        'interval',
        'With --watch: seconds between redraws (default 1)',
      )),
  async run(args, ctx) {
    if (stringArg(args, 'remote') !== undefined) return (await import('./remote-views.ts')).remoteStatus(args, ctx);
    const { renderWorkflowStatus } = await import('../../../workflow/engine/status.ts');
    const { workflowStatus } = await import('../../../app/workflow-views.ts');
    const { sanitizeTerminal } = await import('../../../text/sanitize-terminal.ts');
    const id = stringArg(args, 'id');
    const status = await workflowStatus(id === undefined ? {} : { id }, fromCliContext(ctx));
    const render = () => {
      const view = status.read();
      // Task issues and reasons quote what CLIs said: neutralised before they reach a terminal.
      return { view, text: ctx.options.json ? JSON.stringify(view, null, 2) : sanitizeTerminal(renderWorkflowStatus(view)) };
    };
    if (!flagArg(args, 'watch')) {
      if (ctx.options.json) ctx.out(render().text);
      else ctx.show(render().text);
      return 0;
    }
    return watch(ctx, render, (positive(args, 'interval') ?? 1) * 1000);
  },
});

/** Redraws in place on a terminal; elsewhere prints the status again only when it changed. */
async function watch(ctx: CliContext, render: () => { view: { status: string }; text: string }, intervalMs: number): Promise<number> {
  const tty = ctx.deps.stdout.isTTY === true && !ctx.options.json;
  const stop = new AbortController();
  const stopListening = ctx.deps.onInterrupt(() => stop.abort());
  let last = '';
  try {
    for (;;) {
      const { view, text } = render();
      if (text !== last) {
        // Home, the table, then clear what an earlier, longer table left below it.
        if (tty) ctx.deps.stdout.write(`${last ? '\x1b[H' : '\x1b[H\x1b[2J'}${text.replaceAll('\n', '\x1b[K\n')}\x1b[J`);
        else ctx.out(last ? `\n${text}` : text);
        last = text;
      }
      if (view.status !== 'running') return 0;
      await sleep(intervalMs, undefined, { signal: stop.signal }).catch(() => {});
      if (stop.signal.aborted) return 130;
    }
  } finally {
    stopListening();
  }
}

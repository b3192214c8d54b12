/**
 * What the workflow commands that run tasks share on the command line: their options (yargs),
 * the translation of those into the use cases' DriveInput (core/app), Ctrl-C (ends every run's
 * process tree, records `interrupted`, exit 130), progress on stderr, and the printed result.
 */
import type { Argv } from 'yargs';
import type { DriveInput } from '../app/workflow-options.ts';
import type { PreparedWorkflow, WorkflowHooks } from '../app/workflow-run.ts';
import type { WorkflowResult } from '../workflow/engine/result.ts';
import type { Args } from './command.ts';
import type { CliContext } from './context.ts';
import { flagArg, listArg, stringArg } from './read-args.ts';
import { numberOption, positive } from './numbers.ts';

export function driveOptions(y: Argv): Argv {
  return numberOption(
    numberOption(numberOption(y, 'jobs', "Tasks at once (default: the plan's, else 2)"), 'max-cost-usd', 'Stop starting runs once the summed cost reaches this (resumable with a higher one)'),
    'max-rounds',
    "Worker rounds per task at most (overrides the plan's max_rounds)",
  )
    .option('cli', { type: 'string', array: true, default: [] as string[], describe: 'Adapter for every role (NAME), or for one role (ROLE=NAME); repeatable' })
    .option('min-run-usd', { type: 'number', describe: 'No run starts when what is left of the cost ceiling is below this (default 0.01)' })
    .option('quota-wait', { type: 'string', describe: 'How long a quota or rate limit may pause the workflow (90s, 5m; default 5m) before it ends stopped, resumable' })
    .option('sandbox', { type: 'string', describe: "Sandbox every run's CLI and gates run in: none, bwrap, docker, podman or a plugin's (as run --sandbox; kept for the workflow's later commands)" })
    .option('allow-host', { type: 'string', array: true, default: [] as string[], describe: 'A host:port every sandboxed CLI may reach, besides its model API (repeatable; as run --allow-host)' })
    .option('pass-env', { type: 'string', array: true, default: [] as string[], describe: 'A variable of yours every sandboxed CLI and gate may see (repeatable; as run --pass-env)' })
    .option('allow-command', { type: 'string', array: true, default: [] as string[], describe: 'A command every run\'s CLI may run, e.g. "npm test" (repeatable; as run --allow-command; "*": any, only with a sandbox)' })
    .option('on-event', { type: 'string', array: true, default: [] as string[], describe: 'A shell command run (in the repository root) for every workflow event: the event as one JSON line on stdin, SUPERVISOR_EVENT=<kind> (repeatable)' })
    .option('approve-all', { type: 'boolean', default: false, describe: 'Approve every task that waits for approval as it arrives (for scripts; recorded as your decision)' })
    .option('loosen', { type: 'boolean', default: false, describe: 'Let this command loosen the settings the workflow was started with (sandbox, allowed commands, hosts, variables); reported and recorded' });
}

/** argv → DriveInput: numbers checked against their ranges, as given otherwise. */
export function driveInputFromArgs(args: Args): DriveInput {
  const sandbox = stringArg(args, 'sandbox');
  const quotaWait = stringArg(args, 'quota-wait');
  const jobs = positive(args, 'jobs', { integer: true, max: 64 });
  const maxRounds = positive(args, 'max-rounds', { integer: true, max: 50 });
  const maxCostUsd = positive(args, 'max-cost-usd');
  const minRunUsd = positive(args, 'min-run-usd');
  return {
    cli: listArg(args, 'cli'),
    ...(jobs === undefined ? {} : { jobs }),
    ...(maxRounds === undefined ? {} : { maxRounds }),
    ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
    ...(minRunUsd === undefined ? {} : { minRunUsd }),
    ...(quotaWait === undefined ? {} : { quotaWait }),
    ...(sandbox === undefined ? {} : { sandbox }),
    allowHosts: listArg(args, 'allow-host'),
    passEnv: listArg(args, 'pass-env'),
    allowCommands: listArg(args, 'allow-command'),
    onEvent: listArg(args, 'on-event'),
    approveAll: flagArg(args, 'approve-all'),
    loosen: flagArg(args, 'loosen'),
  };
}

/** Starts a prepared workflow with Ctrl-C and progress wired, prints the result, returns the exit code. */
export async function driveWorkflow(ctx: CliContext, prepared: PreparedWorkflow): Promise<number> {
  const { createProgressView } = await import('../workflow/engine/progress.ts');
  const view = createProgressView((text) => void ctx.deps.stderr.write(text), ctx.deps.stderr.isTTY === true, prepared.taskIds);
  const controller = new AbortController();
  // The handler may be told which signal stopped us (SIGINT, SIGHUP, SIGTERM): the reason sets the exit code.
  const onStop = (signal?: unknown) => {
    if (!controller.signal.aborted) ctx.warn(`interrupt${typeof signal === 'string' ? ` (${signal})` : ''}: ending every run and recording the workflow as interrupted (resumable)`);
    controller.abort(typeof signal === 'string' ? signal : 'SIGINT');
  };
  const stopListening = ctx.deps.onInterrupt(onStop);
  const { createNoticeOnce } = await import('./notice-once.ts');
  const notices = createNoticeOnce((message) => view.note(`notice: ${message}`));
  let result: WorkflowResult;
  const hooks: WorkflowHooks = { signal: controller.signal, onProgress: (event) => view.update(event), onNotice: (message) => notices.note(message) };
  try {
    result = await prepared.start(hooks);
  } finally {
    view.stop();
    stopListening();
    for (const line of notices.summary()) ctx.warn(line);
  }
  const { renderWorkflowResult } = await import('../workflow/engine/render.ts');
  // Model and plan text (issues, titles) reach a terminal only through the sanitiser.
  if (ctx.options.json) ctx.out(JSON.stringify(result, null, 2));
  else ctx.show(renderWorkflowResult(result));
  return result.exit_code;
}

import type { Argv } from 'yargs';
import { errors } from '../../errors.ts';
import { defineCommand } from '../../command/command.ts';
import { numberOption } from '../../command/numbers.ts';
import { fromCliContext } from '../../command/app-deps.ts';
import { runInputFromArgs } from '../../command/run-options.ts';
import { listArg, stringArg } from '../../command/read-args.ts';

/** The numeric options, with the role setting each overrides (ranges from the role schema). */
function numbers(y: Argv): Argv {
  let out = numberOption(y, 'timeout', "Seconds before the CLI's process tree is ended (default: role config.timeout, else 600)");
  out = numberOption(out, 'retries', 'Retries after the first attempt (default: role config.max_retries, else 2)');
  out = numberOption(out, 'gate-timeout', 'Seconds each gate may take (default: role config.gate_timeout, else 300)');
  return numberOption(out, 'max-cost-usd', 'Stop further attempts once the summed cost reaches this (default: role config.max_cost_usd)');
}

export default defineCommand({
  command: 'run <role>',
  describe: 'Run a role on a task: pack, prompt, run its CLI in a worktree, validate, gate, retry; print one result',
  example: { command: '$0 run reviewer --task "Review the parser" --target src/parser.ts', describe: 'review one file in a fresh worktree and print the validated result' },
  builder: (y) =>
    numbers(y)
      .positional('role', { type: 'string', describe: 'Role name (supervisor roles list)' })
      .option('task', { type: 'string', demandOption: 'Give the task: --task "<text>", --task @file or --task - (stdin)', describe: 'The task: text, @file, or - for stdin' })
      .option('target', { type: 'string', array: true, default: [] as string[], describe: 'A file the task is about (repeatable)' })
      .option('cli', { type: 'string', describe: "Adapter to use instead of the role's cli" })
      .option('context', { type: 'string', array: true, default: [] as string[], describe: 'Extra context: key=value or key=@file (repeatable)' })
      .option('gate', { type: 'string', array: true, default: [] as string[], describe: "A check command run after a passing answer, in the worktree (repeatable; after the role's gates)" })
      .option('allow-command', { type: 'string', array: true, default: [] as string[], describe: 'A command the CLI may run, e.g. "npm test" (repeatable; besides the role\'s allowed_commands; "*": any command, only with --sandbox)' })
      .option('setup', { type: 'string', array: true, default: [] as string[], describe: "A set-up command run in the new worktree before the CLI starts, e.g. 'npm ci' (repeatable; after the role's setup); what it makes is never committed" })
      .option('worktree', { type: 'boolean', default: true, describe: 'Run in an isolated git worktree (--no-worktree: in place)' })
      .option('keep-worktree', { type: 'boolean', default: false, describe: 'Keep the worktree folder after the run (the branch always stays)' })
      .option('secret-scan', { type: 'boolean', default: true, describe: 'Leave out files and diffs that look like they hold a secret (--no-secret-scan: pack them)' })
      .option('sandbox', { type: 'string', describe: "Sandbox the CLI and gates run in: none, bwrap, docker, podman or a plugin's (default: the role's, else none)" })
      .option('allow-host', { type: 'string', array: true, default: [] as string[], describe: 'A host:port the sandboxed CLI may reach, besides its model API (repeatable; a loopback port is forwarded)' })
      .option('pass-env', { type: 'string', array: true, default: [] as string[], describe: "A variable of yours the sandboxed CLI and gates may see (repeatable; NAME or a prefix NAME_*). Only PATH, TERM, locale, SUPERVISOR_* and the adapter's own pass otherwise" })
      .option('base', { type: 'string', describe: 'Start the worktree from this commit or branch instead of HEAD' })
      .option('review', { type: 'string', describe: 'Review <base>..<head>, or a branch (its commits since the merge base with --base/HEAD): the git parts come from it, the worktree is at its head' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Print the prompt and the exact command line; start nothing' })
      .option('tokenizer', { choices: ['chars', 'o200k'] as const, describe: 'How prompt tokens are counted: estimated from character classes (default; the budget: 4 characters per token), or o200k exactly' }),
  async run(args, ctx) {
    const { readKeyValues, readTextArg } = await import('../../command/text-arg.ts');
    const task = await readTextArg(stringArg(args, 'task') ?? '', ctx.deps, 'task');
    if (!task.trim()) throw errors.usage('The task is empty', 'Give the task as text, @file or - for stdin.');
    const input = await runInputFromArgs(args, { task, extraContext: await readKeyValues(listArg(args, 'context'), ctx.deps, 'context') });
    const { runRequest } = await import('../../app/run.ts');
    const call = await runRequest(input, fromCliContext(ctx));
    const render = await import('../../runs/render.ts');
    if (args['dry-run'] === true) {
      const { dryRunRole } = await import('../../run/dry-run.ts');
      const { joinRunOptions } = await import('../../run/options.ts');
      const dry = await dryRunRole(joinRunOptions(call.request, call.deps, call.hooks));
      if (ctx.options.json) ctx.out(JSON.stringify(dry, null, 2));
      else ctx.show(render.renderDryRun(dry));
      return 0;
    }
    const { runRole } = await import('../../run/run-role.ts');
    const controller = new AbortController();
    const stopListening = ctx.deps.onInterrupt((signal) => {
      if (!controller.signal.aborted) ctx.warn(`interrupt (${signal}): ending the CLI and cleaning up (the checkout is not touched)`);
      // The reason says which signal, so the run exits 130, 129 (SIGHUP) or 143 (SIGTERM).
      controller.abort(signal);
    });
    try {
      const result = await runRole(call.request, call.deps, {
        ...call.hooks,
        signal: controller.signal,
        onEvent: (event) => {
          const line = render.describeEvent(event);
          if (line) ctx.progress(line);
        },
      });
      if (ctx.options.json) ctx.out(JSON.stringify(result, null, 2));
      else ctx.show(render.renderResult(result, ctx.deps.cwd));
      return result.exit_code;
    } finally {
      stopListening();
    }
  },
});

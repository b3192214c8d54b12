/**
 * `supervisor run`'s arguments → the run use case's input (core/app/run.ts): numbers checked
 * against the role schema's ranges, empty values refused, nothing cast.
 */
import type { RunInput } from '../app/run.ts';
import type { TokenizerName } from '../context/tokens.ts';
import type { Args } from './command.ts';
import { flagArg, listArg, onUnlessNo, stringArg } from './read-args.ts';
import { nameOption, nonEmptyList } from './name-option.ts';
import { roleSettingArg } from './numbers.ts';

const TOKENIZERS: readonly TokenizerName[] = ['chars', 'o200k'];

function tokenizerArg(args: Args): TokenizerName | undefined {
  const value = stringArg(args, 'tokenizer');
  // yargs has checked it against its choices.
  return TOKENIZERS.find((t) => t === value);
}

/** Everything but the task's own text and the extra context, which the caller reads (they may come from files or stdin). */
export async function runInputFromArgs(args: Args, read: { task: string; extraContext?: Record<string, string> }): Promise<RunInput> {
  const cli = nameOption(args, 'cli', 'an adapter name (supervisor plugins list)');
  const sandbox = nameOption(args, 'sandbox', "a sandbox name: none, bwrap, docker, podman or a plugin's");
  const timeoutSec = await roleSettingArg(args, 'timeout', 'timeout');
  const retries = await roleSettingArg(args, 'retries', 'max_retries');
  const gateTimeoutSec = await roleSettingArg(args, 'gate-timeout', 'gate_timeout');
  const maxCostUsd = await roleSettingArg(args, 'max-cost-usd', 'max_cost_usd');
  const tokenizer = tokenizerArg(args);
  const base = stringArg(args, 'base');
  const review = stringArg(args, 'review');
  return {
    role: stringArg(args, 'role') ?? '',
    task: read.task,
    targets: listArg(args, 'target'),
    extraContext: read.extraContext ?? {},
    ...(cli === undefined ? {} : { cli }),
    ...(sandbox === undefined ? {} : { sandbox }),
    allowHosts: listArg(args, 'allow-host'),
    passEnv: listArg(args, 'pass-env'),
    gates: nonEmptyList(args, 'gate', 'a command to run'),
    allowCommands: nonEmptyList(args, 'allow-command', 'a command the CLI may run, e.g. "npm test"'),
    setup: nonEmptyList(args, 'setup', 'a set-up command to run'),
    ...(timeoutSec === undefined ? {} : { timeoutSec }),
    ...(retries === undefined ? {} : { retries }),
    ...(gateTimeoutSec === undefined ? {} : { gateTimeoutSec }),
    ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
    worktree: onUnlessNo(args, 'worktree'),
    keepWorktree: flagArg(args, 'keep-worktree'),
    secretScan: onUnlessNo(args, 'secret-scan'),
    ...(tokenizer === undefined ? {} : { tokenizer }),
    ...(base === undefined ? {} : { base }),
    ...(review === undefined ? {} : { review }),
  };
}

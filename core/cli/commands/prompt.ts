/**
 * `supervisor prompt <role> --task ...`: prints the exact prompt `run` would send (stdout), and
 * with --stats the estimated tokens of each part and what was pruned (stderr).
 */
import type { BuiltPrompt } from '../../prompt/build-prompt.ts';
import { errors } from '../../errors.ts';
import { snakeKeys } from '../../text/snake-keys.ts';
import { defineCommand } from '../../command/command.ts';
import { renderTable } from '../../text/table.ts';
import { loadRoleArg } from '../../command/role-arg.ts';
import { resolveTargets } from '../../app/targets.ts';
import { readKeyValues, readTextArg } from '../../command/text-arg.ts';
import { listArg } from '../../command/read-args.ts';

/** The --stats report: one line per part, then pruned keys and warnings (notices print as they happen). */
function renderPromptStats(built: BuiltPrompt, tokenizer: string): string {
  const { stats } = built;
  const head = `prompt: ~${stats.promptTokens} tokens (${tokenizer}), ${Buffer.byteLength(built.prompt)} bytes; template: ${built.template ?? '(none: plain prompt)'}; output schema: ${built.outputSchema.name}`;
  const rows = stats.parts.map((p) => [p.key, String(p.tokens), String(p.bytes), String(p.files.length), p.pruned ? 'pruned' : '']);
  const lines = [head, renderTable(['part', 'tokens', 'bytes', 'files', ''], rows)];
  const budget = stats.contextBudgetTokens == null ? 'unlimited' : `~${stats.contextBudgetTokens} tokens`;
  lines.push(`context budget: ${budget}; pruned: ${stats.pruned.length ? stats.pruned.join(', ') : 'nothing'}`);
  if (built.instructionFiles.length) lines.push(`instruction files handed to the CLI: ${built.instructionFiles.join(', ')}`);
  for (const warning of stats.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}

/**
 * The task from --task or the [text] positional. yargs reads a lone "-" as a positional, so
 * `--task -` (and a bare `-`) arrive as text === "": that means stdin.
 */
function taskArg(option: unknown, positional: unknown): string {
  const given = [option, positional].filter((v) => typeof v === 'string' && v !== '').length;
  if (given > 1 || (positional === '' && typeof option === 'string' && option !== '')) {
    throw errors.usage('The task was given more than once', 'Give one task, either with --task or after the role name.');
  }
  if (positional === '') return '-';
  const value = typeof option === 'string' ? option : positional;
  if (value === undefined) throw errors.usage('Missing the task', 'Give it with --task <text|@file|->.');
  if (value === '') throw errors.usage('The task is empty', 'Give the task as text, @file, or - to read it from stdin.');
  return String(value);
}

export default defineCommand({
  command: 'prompt <role> [text]',
  describe: 'Print the exact prompt `run` would send for a role (--stats: token estimate per part, on stderr)',
  example: { command: '$0 prompt implementer --task "Validate parseUser input" --target src/user.ts --stats', describe: 'the exact prompt run would send, with its token estimate on stderr' },
  builder: (y) =>
    y
      .positional('role', { type: 'string', describe: 'Role name, or a role file (.yaml)' })
      .positional('text', { type: 'string', describe: 'The task, instead of --task' })
      .option('task', { type: 'string', describe: 'The task: text, @file, or - for stdin (required)' })
      .option('target', { type: 'string', array: true, default: [] as string[], describe: 'A file the task is about, relative to the current folder (repeatable)' })
      .option('context', { type: 'string', array: true, default: [] as string[], describe: 'Extra context section: key=value or key=@file (repeatable)' })
      .option('stats', { type: 'boolean', default: false, describe: 'Print estimated tokens per part and what was pruned to stderr' })
      .option('secret-scan', { type: 'boolean', default: true, describe: 'Leave out files and diffs that look like they hold a secret (--no-secret-scan: pack them)' })
      .option('tokenizer', { choices: ['chars', 'o200k'] as const, default: 'chars' as const, describe: 'How tokens are counted: estimated from character classes (the budget: 4 chars per token), or o200k exactly' }),
  async run(args, ctx) {
    const task = await readTextArg(taskArg(args.task, args.text), ctx.deps, 'task');
    const extraContext = await readKeyValues(listArg(args, 'context'), ctx.deps, 'context');
    const tokenizer = args.tokenizer === 'o200k' ? 'o200k' : 'chars';
    const roleArg = String(args.role);
    const registry = await ctx.registry();
    const role = await loadRoleArg(roleArg, ctx);
    const adapter = registry.get('adapter', role.cli);
    const { buildPrompt } = await import('../../prompt/build-prompt.ts');
    const built = await buildPrompt({
      role,
      task,
      targets: await resolveTargets(listArg(args, 'target'), ctx.deps.cwd, ctx.repoRoot),
      extraContext,
      repoRoot: ctx.repoRoot,
      trustedRepo: (await ctx.trust()).trusted,
      registry,
      instructionsAsArguments: adapter.instructions === 'argument',
      tokenizer,
      secretScan: args['secret-scan'] !== false,
      notice: (message) => ctx.warn(`notice: ${message}`),
    });
    if (ctx.options.json) {
      const { prompt, template, outputSchema, instructionFiles, stats } = built;
      ctx.out(JSON.stringify(snakeKeys({ role: role.name, template, outputSchema: outputSchema.name, instructionFiles, prompt, stats }), null, 2));
    } else {
      ctx.deps.stdout.write(built.prompt);
    }
    if (args.stats) ctx.warn(renderPromptStats(built, tokenizer));
    else {
      for (const warning of built.stats.warnings) ctx.warn(`warning: ${warning}`);
      if (built.instructionFiles.length) ctx.warn(`note: instruction files are handed to ${role.cli} as arguments, not printed: ${built.instructionFiles.join(', ')}`);
    }
    return 0;
  },
});

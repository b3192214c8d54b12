/**
 * `supervisor pack`: prints the packed file context — what the template flow puts into a
 * prompt — for a role (its context spec) or for ad-hoc globs. --stats reports files, bytes
 * and tokens per part, what was skipped and pruned, and the time taken, on stderr.
 */
import { resolve } from 'node:path';
import { fromCliContext } from '../../command/app-deps.ts';
import type { PackInput } from '../../app/pack.ts';
import type { PackedContext } from '../../context/types.ts';
import { errors } from '../../errors.ts';
import { writeTextFile } from '../../fs/write-text.ts';
import { defineCommand, type Args } from '../../command/command.ts';
import type { CliContext } from '../../command/context.ts';
import { renderTable } from '../../text/table.ts';
import { readKeyValues } from '../../command/text-arg.ts';
import { nameList } from '../../text/name-list.ts';
import { snakeKeys } from '../../text/snake-keys.ts';
import { flagArg, listArg, onUnlessNo, stringArg } from '../../command/read-args.ts';

/** One of a choice option's values (yargs checked it against the same list). */
function choiceArg<T extends string>(args: Args, name: string, choices: readonly T[]): T | undefined {
  const value = stringArg(args, name);
  if (value === undefined) return undefined;
  const found = choices.find((choice) => choice === value);
  if (found === undefined) throw errors.usage(`--${name} expects one of ${choices.join(', ')}, got "${value}"`);
  return found;
}

/** argv → the pack use case's input; `--context key=@file` values are read here (the user's files). */
export async function packInput(args: Args, ctx: Pick<CliContext, 'deps' | 'options'>): Promise<PackInput> {
  const role = stringArg(args, 'role');
  const budget = args.budget;
  if (budget !== undefined && typeof budget !== 'number') throw errors.usage('--budget expects a number');
  const style = choiceArg(args, 'style', ['markdown', 'xml'] as const);
  return {
    ...(role === undefined ? {} : { role }),
    packers: listArg(args, 'packer'),
    include: listArg(args, 'include'),
    exclude: listArg(args, 'exclude'),
    targets: listArg(args, 'target'),
    extraContext: await readKeyValues(listArg(args, 'context'), ctx.deps, 'context'),
    ...(budget === undefined ? {} : { budgetTokens: budget }),
    ...(style === undefined ? {} : { style }),
    tokenizer: choiceArg(args, 'tokenizer', ['chars', 'o200k'] as const) ?? 'chars',
    secretScan: onUnlessNo(args, 'secret-scan'),
    countTokens: flagArg(args, 'stats') || ctx.options.json === true,
  };
}

/** What the budget left out or cut, a few names per part. */
function renderLeftOut(packed: PackedContext): string {
  const name = (paths: string[]) => nameList(paths, 5);
  const lines = packed.parts.flatMap((p) => [
    ...(p.leftOut.length ? [`  ${p.key}: ${p.leftOut.length} file${p.leftOut.length === 1 ? '' : 's'} left out: ${name(p.leftOut)}`] : p.pruned ? [`  ${p.key}: left out`] : []),
    ...(p.truncated.length ? [`  ${p.key}: cut at the budget line: ${name(p.truncated)}`] : []),
  ]);
  return lines.length ? ['left out:', ...lines].join('\n') : 'left out: nothing';
}

function renderPackStats(packed: PackedContext, ms: number, tokenizer: string): string {
  const state = (p: PackedContext['parts'][number]) => (p.pruned ? 'pruned' : p.truncated.length || p.leftOut.length ? 'cut' : '');
  const rows = packed.parts.map((p) => [p.key, String(p.files.length), String(p.bytes), String(p.tokens), state(p)]);
  const files = packed.parts.filter((p) => !p.pruned).reduce((n, p) => n + p.files.length, 0);
  const budget = Number.isFinite(packed.budgetTokens) ? `${packed.budgetTokens} tokens for file context` : 'none';
  const skipped = packed.notices.filter((n) => n.includes('skipped') || n.includes('left out'));
  return [
    renderTable(['part', 'files', 'bytes', 'tokens', ''], rows),
    `total: ${files} files, ${Buffer.byteLength(packed.text)} bytes, ~${packed.estimatedTokens} tokens (${tokenizer}); budget: ${budget}`,
    `pruned: ${packed.pruned.length ? packed.pruned.join(', ') : 'nothing'}`,
    renderLeftOut(packed),
    skipped.length ? ['skipped:', ...skipped.map((n) => `  ${n}`)].join('\n') : 'skipped: nothing',
    `time: ${ms} ms`,
  ].join('\n');
}

async function run(args: Args, ctx: CliContext): Promise<number> {
  const started = performance.now();
  const input = await packInput(args, ctx);
  const { pack } = await import('../../app/pack.ts');
  const packed = await pack(input, fromCliContext(ctx));
  const tokenizer = input.tokenizer;
  // Printed once, with or without --stats.
  for (const warning of packed.warnings) ctx.warn(`warning: ${warning}`);
  const ms = Math.round(performance.now() - started);
  const output = ctx.options.json
    ? JSON.stringify(
        snakeKeys({
          text: packed.text,
          parts: packed.parts,
          pruned: packed.pruned,
          notices: packed.notices,
          warnings: packed.warnings,
          estimatedTokens: packed.estimatedTokens,
          budgetTokens: Number.isFinite(packed.budgetTokens) ? packed.budgetTokens : null,
        }),
        null,
        2,
      )
    : packed.text;
  const outputFile = stringArg(args, 'output');
  if (outputFile !== undefined) writeTextFile(resolve(ctx.deps.cwd, outputFile), output);
  else ctx.out(output);
  if (flagArg(args, 'stats')) ctx.warn(renderPackStats(packed, ms, tokenizer));
  return 0;
}

export default defineCommand({
  command: 'pack',
  describe: 'Print the packed file context for a role or for globs (--stats: files, bytes, tokens per part, on stderr)',
  example: { command: "$0 pack --include 'src/**/*.ts' --exclude '**/*.test.ts' --budget 20000", describe: 'pack the sources (not the tests) within 20000 tokens' },
  builder: (y) =>
    y
      .option('role', { type: 'string', describe: "Pack the role's context spec (role name or .yaml file)" })
      .option('packer', { type: 'string', array: true, default: [] as string[], describe: 'Packer plugin to gather files with (repeatable; default: the role\'s, else glob)' })
      .option('include', { type: 'string', array: true, default: [] as string[], describe: 'Glob to include (repeatable; default without --role: everything)' })
      .option('exclude', { type: 'string', array: true, default: [] as string[], describe: 'Glob to exclude (repeatable)' })
      .option('target', { type: 'string', array: true, default: [] as string[], describe: 'Target file, relative to the current folder (repeatable)' })
      .option('context', { type: 'string', array: true, default: [] as string[], describe: 'Extra section: key=value or key=@file (repeatable)' })
      .option('budget', { type: 'number', describe: "Token budget (default: the role's token_budget, else none)" })
      .option('style', { choices: ['markdown', 'xml'] as const, describe: 'Layout of packed files (default markdown)' })
      .option('tokenizer', { choices: ['chars', 'o200k'] as const, default: 'chars' as const, describe: 'How tokens are counted: estimated from character classes (the budget: 4 chars per token), or o200k exactly' })
      .option('secret-scan', { type: 'boolean', default: true, describe: 'Leave out files and diffs that look like they hold a secret (--no-secret-scan: pack them)' })
      .option('stats', { type: 'boolean', default: false, describe: 'Print files, bytes and tokens per part, skipped and pruned, and time to stderr' })
      .option('output', { alias: 'o', type: 'string', describe: 'Write to this file instead of stdout' }),
  run,
});

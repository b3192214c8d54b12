/**
 * `supervisor pack`: prints the packed file context — what the template flow puts into a
 * prompt — for a role (its context spec) or for ad-hoc globs. --stats reports files, bytes
 * and tokens per part, what was skipped and pruned, and the time taken, on stderr.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { TokenizerName } from '../../context/tokens.ts';
import type { PackedContext } from '../../context/types.ts';
import type { Role } from '../../roles/role.ts';
import { defineCommand, type Args } from '../../command/command.ts';
import type { CliContext } from '../../command/context.ts';
import { renderTable } from '../../text/table.ts';
import { readKeyValues } from '../../command/text-arg.ts';
import { loadRoleArg } from '../../command/role-arg.ts';
import { resolveTargets } from '../../command/targets.ts';
import { createRole } from '../../roles/role.ts';
import { nameList } from '../../text/name-list.ts';
import { snakeKeys } from '../../text/snake-keys.ts';

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** A role for packing without one: only the flags' context. */
function adHocRole(repoRoot: string): Role {
  return createRole({ name: 'pack', description: 'ad-hoc pack', file: repoRoot });
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
  // yargs has checked both against their choices.
  const tokenizer = args.tokenizer as TokenizerName;
  const style = args.style as 'markdown' | 'xml' | undefined;
  const roleName = typeof args.role === 'string' ? args.role : undefined;
  const role = roleName ? await loadRoleArg(roleName, ctx) : adHocRole(ctx.repoRoot);
  const include = list(args.include);
  const extraContext = await readKeyValues(list(args.context), ctx.deps, 'context');
  const targets = await resolveTargets(list(args.target), ctx.deps.cwd, ctx.repoRoot);
  const registry = await ctx.registry();
  const { packFileContext } = await import('../../context/pack.ts');
  const packed = await packFileContext({
    role,
    repoRoot: ctx.repoRoot,
    trustedRepo: (await ctx.trust()).trusted,
    targets,
    extraContext,
    registry,
    packers: list(args.packer),
    // Without a role, an ad-hoc pack with no --include packs the whole repository.
    include: roleName || include.length || targets.length ? include : ['**/*'],
    exclude: list(args.exclude),
    // Checked once, where the role's token_budget is checked too (BUDGET_INVALID).
    ...(args.budget === undefined ? {} : { budgetTokens: args.budget as number }),
    ...(style ? { style } : {}),
    // Without a role there is no template around the files: the whole budget is theirs.
    reserveTemplate: roleName !== undefined,
    tokenizer,
    ...(args['secret-scan'] === false ? { secretScan: false } : {}),
    env: ctx.deps.env,
    notice: (message) => ctx.warn(`notice: ${message}`),
  });
  // Counts are taken when reported, and only then is the tokenizer needed.
  if (args.stats || ctx.options.json) await (await import('../../context/tokens.ts')).loadTokenizer(tokenizer);
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
  if (typeof args.output === 'string') await writeFile(resolve(ctx.deps.cwd, args.output), output.endsWith('\n') ? output : `${output}\n`);
  else ctx.out(output);
  if (args.stats) ctx.warn(renderPackStats(packed, ms, tokenizer));
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
      .option('tokenizer', { choices: ['chars', 'o200k'] as const, default: 'chars' as const, describe: 'How tokens are counted: 4 chars per token, or o200k exactly' })
      .option('secret-scan', { type: 'boolean', default: true, describe: 'Leave out files and diffs that look like they hold a secret (--no-secret-scan: pack them)' })
      .option('stats', { type: 'boolean', default: false, describe: 'Print files, bytes and tokens per part, skipped and pruned, and time to stderr' })
      .option('output', { alias: 'o', type: 'string', describe: 'Write to this file instead of stdout' }),
  run,
});

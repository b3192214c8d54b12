/**
 * Replay: the offline adapter. Answers from canned model replies, no CLI, network or API key.
 *
 * Where replies come from (first that is set wins):
 *   1. env `SUPERVISOR_REPLAY`   a file, or a folder (per attempt, or per task, role and round)
 *   2. role field `x-replay`     the same
 *   3. nothing set               the parser's example answer for the role, else one built from the output schema
 * A relative path in `x-replay` is relative to the role file that gives it, as every path in a
 * role is; one in SUPERVISOR_REPLAY is tried against the folder supervisor runs in, then the
 * run's working folder.
 * A folder of numbered files (1.md, 2.md, ...; not starting with ".") answers attempts 1, 2,
 * 3...; the last one repeats. Any other folder is laid out by task, role and round (a
 * workflow's replies), answering from SUPERVISOR_TASK_ID, SUPERVISOR_ROLE and
 * SUPERVISOR_ROUND (the engine sets them), first that exists:
 *   <dir>/<task-id>/<role>-<round>.md   <dir>/<task-id>/<role>.md   <dir>/<role>-<round>.md   <dir>/<role>.md
 * and else the default example. Any of these may itself be a folder of per-attempt files.
 * Canned changes: a `.patch` file found by the same look-up (`<dir>/<task-id>/<role>-<round>.patch`,
 * ..., `<dir>/<role>.patch`; in a folder of numbered files, `<n>.patch` beside the reply `<n>.md`)
 * is applied with `git apply` in the run's worktree by `__emit`, before it prints the answer:
 * alone (with the default answer) or beside a reply. Only a role that edits files may have one.
 * The default comes from the role's parser (`exampleAnswer`: e.g. v2 headers for the v2 roles),
 * else it is a fenced JSON example built from the output schema. The reply is printed by a
 * real process (`supervisor __emit`) inside a Claude-like JSON envelope (estimated token counts
 * for the envelope, cost 0), so the whole pipeline runs as for a CLI; the run's metrics report
 * no tokens (null: no model spent any) and cost $0.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { definePlugin, exampleFromSchema, SupervisorError, type AdapterContext, type CommandRequest, type CommandSpec } from '../../core/plugin-api/index.ts';
import { readClaudeEnvelope } from './_shared/claude-envelope.ts';
import { envOrRoleSetting, type Setting } from './_shared/setting.ts';

export const REPLAY_ENV = 'SUPERVISOR_REPLAY';
export const REPLAY_EXTENSION = 'x-replay';
export const REPLAY_MODEL = 'replay';

const DEFAULT_ANSWER = { status: 'SUCCESS', summary: 'Offline example answer from the replay adapter.' };

type SchemaNode = { type?: unknown; minItems?: number; properties?: Record<string, SchemaNode> };

/** Empties the example's arrays where the schema allows it: a calm "nothing found" answer, not placeholder findings. */
function withoutOptionalItems(schema: SchemaNode | undefined, value: unknown): unknown {
  if (Array.isArray(value)) return schema?.minItems ? value : [];
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutOptionalItems(schema?.properties?.[key], item)]));
}

/**
 * The default reply: a short explanation and a fenced JSON example that fits the output schema:
 * the schema's own example answer (`examples[0]`) as it is, else one built from the schema.
 */
export function exampleReply(request: CommandRequest): string {
  const schema = request.outputSchema?.schema;
  const own = Array.isArray(schema?.examples) ? (schema.examples as unknown[])[0] : undefined;
  const example = own ?? (schema ? withoutOptionalItems(schema as SchemaNode, exampleFromSchema(schema)) : DEFAULT_ANSWER);
  const from = request.outputSchema ? ` built from the "${request.outputSchema.name}" output schema` : '';
  return [
    `This answer comes from the replay adapter (offline, no model was called): an example${from}.`,
    `Set ${REPLAY_ENV} or the role's ${REPLAY_EXTENSION} to a file or folder of canned replies to replay real answers.`,
    '',
    '```json',
    JSON.stringify(example, null, 2),
    '```',
    '',
  ].join('\n');
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

async function resolveSource(setting: Setting, request: CommandRequest): Promise<string> {
  const { value: source, from } = setting;
  const candidates = isAbsolute(source)
    ? [source]
    : setting.roleFile
      ? [resolve(dirname(setting.roleFile), source)]
      : [resolve(process.cwd(), source), resolve(request.cwd, source)];
  for (const candidate of candidates) if (await exists(candidate)) return candidate;
  throw new SupervisorError('REPLAY_NOT_FOUND', `The replay source ${source} (from ${from}) does not exist`, {
    hint: `Looked at: ${[...new Set(candidates)].join(', ')}. Point ${from} at a reply file or a folder of reply files.`,
    details: { file: source },
  });
}

/** The reply file for this attempt: the file itself, or the attempt-th file of the folder (the last repeats). */
async function pickFile(path: string, attempt: number): Promise<string> {
  if (!(await stat(path)).isDirectory()) return path;
  const names: string[] = [];
  for (const name of await readdir(path)) if (!name.startsWith('.') && !name.endsWith(PATCH_EXTENSION) && (await stat(join(path, name))).isFile()) names.push(name);
  names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const chosen = names[Math.min(Math.max(attempt, 1), names.length) - 1];
  if (!chosen) throw new SupervisorError('REPLAY_EMPTY', `The replay folder ${path} holds no reply files`, { hint: 'Add one file per attempt, e.g. 1.md, 2.md.', details: { file: path } });
  return join(path, chosen);
}

/** The default answer: the parser's own example for the role, else one built from the schema. */
function defaultReply(request: CommandRequest): string {
  return request.exampleAnswer ?? exampleReply(request);
}

const REPLY_EXTENSIONS = ['.md', '.txt', ''];
const PATCH_EXTENSION = '.patch';

/** A folder of numbered files (1.md, 2.md, 1.patch, ...): one reply per attempt. */
async function isNumberedFolder(dir: string): Promise<boolean> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => !e.name.startsWith('.'));
  return entries.every((e) => e.isFile() && /^\d+$/.test(e.name.replace(/\.[^.]*$/, '')));
}

/** The look-up's stems for this task, role and round, first wins (see the file comment). */
function roleStems(request: CommandRequest, ctx: AdapterContext): string[] {
  const role = ctx.env.SUPERVISOR_ROLE ?? request.role.name;
  const task = ctx.env.SUPERVISOR_TASK_ID;
  const round = ctx.env.SUPERVISOR_ROUND ?? '1';
  return [...(task ? [join(task, `${role}-${round}`), join(task, role)] : []), `${role}-${round}`, role];
}

/** The first `<dir>/<stem><ext>` that exists, or null. */
async function firstByStem(dir: string, stems: string[], extensions: string[]): Promise<string | null> {
  for (const stem of stems) {
    for (const ext of extensions) {
      const candidate = join(dir, stem + ext);
      if (await exists(candidate)) return candidate;
    }
  }
  return null;
}

interface Canned {
  reply: string;
  source: string | null;
  /** The canned change to apply before answering, if any. */
  patch: string | null;
}

async function loadCanned(request: CommandRequest, ctx: AdapterContext): Promise<Canned> {
  const setting = envOrRoleSetting(request, ctx, REPLAY_ENV, REPLAY_EXTENSION);
  if (!setting) return { reply: defaultReply(request), source: null, patch: null };
  const source = await resolveSource(setting, request);
  let chosen: string | null = source;
  let patch: string | null = null;
  if ((await stat(source)).isDirectory() && !(await isNumberedFolder(source))) {
    const stems = roleStems(request, ctx);
    chosen = await firstByStem(source, stems, REPLY_EXTENSIONS);
    patch = await firstByStem(source, stems, [PATCH_EXTENSION]);
  }
  if (chosen === null) return { reply: defaultReply(request), source: null, patch };
  const file = await pickFile(chosen, request.attempt);
  if (file !== chosen) {
    // A per-attempt folder: the attempt's own `<n>.patch` beside its reply wins.
    const beside = join(dirname(file), basename(file, extname(file)) + PATCH_EXTENSION);
    if (await exists(beside)) patch = beside;
  }
  return { reply: await readFile(file, 'utf8'), source: file, patch };
}

/** The canned change, copied into the scratch folder (the one place a sandbox surely shows the process), with __emit's arguments to apply it. */
async function patchArgs(patch: string | null, request: CommandRequest): Promise<string[]> {
  if (!patch) return [];
  if (!request.allowEdits) {
    throw new SupervisorError('REPLAY_PATCH_READ_ONLY', `The replay change ${patch} is for the role "${request.role.name}", which does not edit files`, {
      hint: 'Give canned changes (.patch) to a role that edits files (worker, implementer); remove or rename this one.',
      details: { file: patch },
    });
  }
  const copy = join(request.scratchDir, `replay-change-${request.attempt}.patch`);
  await copyFile(patch, copy);
  const git = request.git ? ['--git-dir', request.git.admin, '--common-dir', request.git.common] : [];
  return ['--apply', copy, ...git];
}

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** A Claude Code `-p --output-format json` result object around the reply. */
export function replayEnvelope(reply: string, prompt: string, source: string | null): Record<string, unknown> {
  const usage = { input_tokens: estimateTokens(prompt), output_tokens: estimateTokens(reply), cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  return {
    type: 'result',
    subtype: 'success',
    is_error: false,
    num_turns: 1,
    result: reply,
    session_id: `replay-${randomUUID()}`,
    total_cost_usd: 0,
    usage,
    modelUsage: { [REPLAY_MODEL]: { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUSD: 0 } },
    permission_denials: [],
    replay_source: source,
  };
}

async function replayCommand(request: CommandRequest, ctx: AdapterContext): Promise<CommandSpec> {
  const { reply, source, patch } = await loadCanned(request, ctx);
  ctx.notice(source ? `replay: attempt ${request.attempt} answers from ${source}` : `replay: no canned reply for this run, answering with ${request.exampleAnswer === undefined ? 'an example built from the output schema' : "the parser's example answer"}`);
  if (patch) ctx.notice(`replay: attempt ${request.attempt} applies the canned change ${patch}`);
  const apply = await patchArgs(patch, request);
  const file = join(request.scratchDir, `replay-envelope-${request.attempt}.json`);
  await writeFile(file, `${JSON.stringify(replayEnvelope(reply, request.prompt, source))}\n`);
  return { bin: ctx.self.bin, args: [...ctx.self.args, '__emit', file, ...apply] };
}

export default definePlugin({
  kind: 'adapter',
  name: 'replay',
  description: 'Canned replies, offline (SUPERVISOR_REPLAY or x-replay; default: an example from the output schema)',
  // Runs supervisor itself (`__emit`): no CLI to find on PATH.
  bin: 'supervisor',
  selfHosted: true,
  instructions: 'prompt',
  // Not a CLI's native schema support: replay needs the schema to build its default example.
  acceptsOutputSchema: true,
  quietEnv: {},
  // For sandboxes: nothing. Its replies are read before the sandbox starts (SUPERVISOR_REPLAY is
  // supervisor's own); inside, `__emit` only prints a file from the scratch folder.
  access: { env: [] },
  command(request, ctx) {
    return replayCommand(request, ctx);
  },
  extract(result) {
    const { permissionDenials: _ignored, ...extraction } = readClaudeEnvelope(result, 'replay');
    // No model read or wrote anything: the envelope's token counts are estimates for the
    // pipeline, never reported as tokens spent. The cost, $0, is true.
    return extraction.metrics ? { ...extraction, metrics: { ...extraction.metrics, inputTokens: null, outputTokens: null, cachedTokens: null } } : extraction;
  },
});

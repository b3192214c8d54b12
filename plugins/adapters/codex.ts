/**
 * Codex CLI: `codex exec --json --skip-git-repo-check -` with the prompt on stdin. JSON Lines
 * events; there is no `result` event (the seeds assumed one): the final text is the last
 * completed `agent_message`, the outcome is `turn.completed` or `turn.failed`.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { definePlugin, emptyMetrics, type CommandRequest, type Extraction, type ProcessResult, gitDirs } from '../../core/plugin-api/index.ts';
import { failure, httpStatusIn, processFailure } from './_shared/failure.ts';
import { isObject, jsonLines, parseJson, type JsonObject } from './_shared/json.ts';
import { count, text } from './_shared/metrics.ts';
import { num } from './_shared/shapes.ts';
import { dropForcedNulls, strictSchemaFor } from './_shared/strict-schema.ts';

const UsageShape = v.looseObject({ input_tokens: num, cached_input_tokens: num, output_tokens: num, reasoning_output_tokens: num });
const ItemShape = v.looseObject({ id: v.optional(v.string()), type: v.string(), text: v.optional(v.nullable(v.string())), message: v.optional(v.string()) });
const EventShape = v.variant('type', [
  v.looseObject({ type: v.literal('thread.started'), thread_id: v.optional(v.string()) }),
  v.looseObject({ type: v.literal('turn.completed'), usage: v.optional(v.nullable(UsageShape)) }),
  v.looseObject({ type: v.literal('turn.failed'), error: v.optional(v.looseObject({ message: v.optional(v.string()) })) }),
  v.looseObject({ type: v.literal('item.completed'), item: ItemShape }),
  v.looseObject({ type: v.literal('error'), message: v.optional(v.string()) }),
]);
type Event = v.InferOutput<typeof EventShape>;

/**
 * Codex's own sandbox is its permission mechanism: in `exec` it never asks, and runs any command
 * inside the sandbox (read-only by default). Edits need workspace-write; git commands that write
 * (a role that commits) need the worktree's git admin folder and the repository's objects and
 * refs writable too (else `index.lock: Read-only file system`); "*" lifts codex's sandbox, which
 * the core allows only when its own sandbox encloses the CLI.
 */
/**
 * What git writes when it commits: a worktree's admin folder and the common .git (as the core
 * recorded them; read from the worktree's `.git` file only for a worktree the core did not
 * make), or a checkout's .git.
 */
function gitWritableRoots(request: CommandRequest): string[] {
  const { cwd } = request;
  const worktree = request.git ?? gitDirs(cwd);
  if (worktree) return [...new Set([worktree.admin, worktree.common])];
  const dotGit = join(cwd, '.git');
  return existsSync(dotGit) && statSync(dotGit).isDirectory() ? [dotGit] : [];
}

/**
 * Whether codex's own sandbox gives way to supervisor's: inside ours codex's (a nested bwrap)
 * cannot set up its user namespace, and every edit and command then fails while the run still
 * answers. So an editing role, and a read-only role that was allowed commands, run them inside
 * ours, which lets only the worktree and scratch be written (a read-only role's edits are
 * reported as such).
 */
function liftsOwnSandbox(request: Pick<CommandRequest, 'sandboxed' | 'allowEdits' | 'allowedCommands'>): boolean {
  return request.sandboxed === true && (request.allowEdits || request.allowedCommands.length > 0);
}

function sandboxArgs(request: CommandRequest): string[] {
  const commands = request.allowedCommands;
  if (commands.includes('*') || liftsOwnSandbox(request)) return ['--sandbox', 'danger-full-access'];
  if (!request.allowEdits) return [];
  const args = ['--sandbox', 'workspace-write'];
  const roots = commands.some((c) => /^git(\s|$)/.test(c)) ? gitWritableRoots(request) : [];
  if (roots.length) args.push('-c', `sandbox_workspace_write.writable_roots=${JSON.stringify(roots)}`);
  return args;
}

function codexArgs(request: CommandRequest): string[] {
  // Update check and analytics off (config keys from the captures' config.toml).
  const args = ['exec', '--json', '--skip-git-repo-check', '-c', 'check_for_update_on_startup=false', '-c', 'analytics.enabled=false'];
  if (request.model) args.push('--model', request.model);
  args.push(...sandboxArgs(request));
  const strict = request.outputSchema && strictSchemaFor(request.outputSchema.schema);
  if (strict) args.push('--output-schema', strictSchemaFile(request, strict));
  // "-" last: read the prompt from stdin.
  return [...args, ...request.flags, '-'];
}

/**
 * Codex refuses to create its apply_patch helper when its home (CODEX_HOME, ~/.codex) is under
 * TMPDIR, and then every edit fails while the run still answers. Its TMPDIR is therefore a
 * folder of the attempt's own (scratch/tmp), which never holds the home, also in a sandbox whose
 * private /tmp holds it.
 */
function codexTmpDir(request: CommandRequest): string {
  const dir = join(request.scratchDir, 'tmp');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Codex's schema goes to the model in strict mode: hand it a strict copy in the scratch folder.
 * A schema strict mode cannot express (an open object) is not handed over at all.
 */
function strictSchemaFile(request: CommandRequest, strict: Record<string, unknown>): string {
  const file = join(request.scratchDir, 'codex-output-schema.json');
  writeFileSync(file, JSON.stringify(strict, null, 2));
  return file;
}

/** With --output-schema the final message is the bare JSON object, not a fenced block. */
function structuredAnswer(message: string, request: CommandRequest): unknown {
  if (!request.outputSchema || !strictSchemaFor(request.outputSchema.schema)) return undefined;
  const value = parseJson(message);
  return isObject(value) ? dropForcedNulls(value, request.outputSchema.schema) : undefined;
}

interface Read {
  threadId: string | null;
  lastMessage: string | null;
  usage: v.InferOutput<typeof UsageShape> | null;
  completed: boolean;
  failed: string | null;
  lastError: string | null;
  turns: number;
  events: number;
}

function read(stdout: string): Read {
  const out: Read = { threadId: null, lastMessage: null, usage: null, completed: false, failed: null, lastError: null, turns: 0, events: 0 };
  for (const line of jsonLines(stdout)) {
    const parsed = v.safeParse(EventShape, line as JsonObject);
    if (typeof line.type === 'string') out.events++;
    if (line.type === 'turn.started') out.turns++;
    if (!parsed.success) continue;
    const e: Event = parsed.output;
    if (e.type === 'thread.started') out.threadId = e.thread_id ?? null;
    else if (e.type === 'item.completed' && e.item.type === 'agent_message') out.lastMessage = e.item.text ?? '';
    else if (e.type === 'turn.completed') {
      out.completed = true;
      // Usage is cumulative for the thread: the last one is the total.
      out.usage = e.usage ?? out.usage;
    } else if (e.type === 'turn.failed') out.failed = e.error?.message ?? 'turn failed';
    else if (e.type === 'error' && e.message) out.lastError = e.message;
  }
  return out;
}

function extractCodex(result: ProcessResult, request: CommandRequest): Extraction {
  const r = read(result.stdout);
  const metrics = {
    ...emptyMetrics(),
    inputTokens: count(r.usage?.input_tokens),
    outputTokens: count(r.usage?.output_tokens),
    cachedTokens: count(r.usage?.cached_input_tokens),
    durationMs: result.durationMs,
    turns: r.turns || null,
    sessionId: r.threadId,
    model: text(request.model),
  };
  if (r.failed !== null) return { text: null, metrics, failure: failure('api_error', `codex turn failed: ${r.failed}`, httpStatusIn(r.failed)) };
  if (r.completed) {
    if (r.lastMessage === null || r.lastMessage.trim() === '') {
      return { text: null, metrics, failure: failure('empty_output', 'codex finished the turn without an agent message (exit 0, empty reply)') };
    }
    const structured = structuredAnswer(r.lastMessage, request);
    return structured === undefined ? { text: r.lastMessage, metrics } : { text: r.lastMessage, structured, metrics };
  }
  // Neither outcome: stopped by the core, killed, crashed or never started. The exit status
  // says which; the core alone decides interrupted and timeout (its flags, in processFailure).
  // "Reconnecting..." errors are retries: the last one is worth showing.
  const what = r.events ? 'a finished turn (turn.completed or turn.failed)' : "codex's JSON events";
  const why = processFailure('codex', result, what);
  return { text: null, metrics, failure: r.lastError ? failure(why.class, `${why.detail} (last error: ${r.lastError})`) : why };
}

export default definePlugin({
  kind: 'adapter',
  name: 'codex',
  description: 'Codex CLI (codex exec --json --skip-git-repo-check, prompt on stdin)',
  bin: 'codex',
  versionArgs: ['--version'],
  instructions: 'prompt',
  acceptsOutputSchema: true,
  // Its sandbox allows every command or none: a list of commands cannot be enforced.
  commandPermissions: 'all-or-none',
  quietEnv: {},
  // For sandboxes: its model API (a custom base_url in config.toml needs --allow-host), its
  // settings and login, or the whole CODEX_HOME when that is set.
  access: {
    hosts: ['api.openai.com:443', 'chatgpt.com:443'],
    baseUrlEnv: ['OPENAI_BASE_URL'],
    config: [{ path: '~/.codex/config.toml', env: 'CODEX_HOME' }, { path: '~/.codex/auth.json' }],
    // Its key and settings; a custom provider's env_key is the user's to pass (--pass-env).
    env: ['OPENAI_*', 'CODEX_*', 'RUST_LOG', 'SSL_CERT_FILE'],
    secrets: ['OPENAI_API_KEY'],
  },
  command(request) {
    return { args: codexArgs(request), stdin: request.prompt, env: { TMPDIR: codexTmpDir(request) } };
  },
  extract(result, request) {
    return extractCodex(result, request);
  },
});

/**
 * Cline's files on disk. Today: `<data-dir>/sessions/<id>/<id>.json` (status, times, usage) and
 * `<id>.messages.json` (the conversation). Legacy (the VS Code extension, seed 004):
 * `tasks/<id>/api_conversation_history.json` with `metadata.json` / `ui_messages.json` beside it.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { isObject, parseJson, type JsonObject } from './json.ts';
import { count, sum } from './metrics.ts';
import { num } from './shapes.ts';

export const ClineUsageShape = v.looseObject({ inputTokens: num, outputTokens: num, cacheReadTokens: num, cacheWriteTokens: num, totalCost: num });
export type ClineUsage = v.InferOutput<typeof ClineUsageShape>;

const SessionShape = v.looseObject({
  session_id: v.optional(v.string()),
  status: v.optional(v.string()),
  started_at: v.optional(v.string()),
  ended_at: v.optional(v.string()),
  exit_code: v.optional(v.nullable(v.number())),
  model: v.optional(v.string()),
  is_subagent: v.optional(v.boolean()),
  metadata: v.optional(v.looseObject({ totalCost: num, usage: v.optional(ClineUsageShape), aggregateUsage: v.optional(ClineUsageShape) })),
});
export type ClineSession = v.InferOutput<typeof SessionShape> & { id: string; assistantTexts: string[] };

async function readJson(file: string): Promise<unknown> {
  try {
    return parseJson(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The text parts of one message's content (a string or a list of blocks). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter(isObject).filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string).join('\n');
}

/** Assistant texts of a conversation, newest first. User turns are skipped: they hold the prompt, whose example JSON must never count as an answer. */
export function assistantTextsNewestFirst(messages: unknown): string[] {
  if (!Array.isArray(messages)) return [];
  return messages
    .filter(isObject)
    .filter((m) => m.role === 'assistant')
    .map((m) => textOf(m.content))
    .filter((t) => t.trim() !== '')
    .reverse();
}

/** The run's session under `<dataDir>/sessions/`: the lead agent's (first started) when there are several. */
export async function readClineSession(dataDir: string): Promise<ClineSession | undefined> {
  const root = join(dataDir, 'sessions');
  const ids = await readdir(root).catch(() => [] as string[]);
  const sessions: ClineSession[] = [];
  for (const id of ids.sort()) {
    const parsed = v.safeParse(SessionShape, await readJson(join(root, id, `${id}.json`)));
    if (!parsed.success || parsed.output.is_subagent) continue;
    const messages = await readJson(join(root, id, `${id}.messages.json`));
    const list = isObject(messages) ? messages.messages : messages;
    sessions.push({ ...parsed.output, id, assistantTexts: assistantTextsNewestFirst(list) });
  }
  sessions.sort((a, b) => (a.started_at ?? '').localeCompare(b.started_at ?? ''));
  return sessions[0];
}

export interface LegacyTask {
  id: string;
  assistantTexts: string[];
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  costUsd: number | null;
  durationMs: number | null;
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isDirectory(), () => false);
}

/** A task folder itself, or the newest task in `<dir>/tasks/` or in `<dir>` (a tasks folder). */
async function findTaskDir(dir: string): Promise<string | undefined> {
  if (await stat(join(dir, 'api_conversation_history.json')).then(() => true, () => false)) return dir;
  for (const parent of [join(dir, 'tasks'), dir]) {
    const names = await readdir(parent).catch(() => [] as string[]);
    const tasks: { path: string; mtime: number }[] = [];
    for (const name of names) {
      const path = join(parent, name);
      const history = await stat(join(path, 'api_conversation_history.json')).catch(() => undefined);
      if (history && (await isDir(path))) tasks.push({ path, mtime: history.mtimeMs });
    }
    tasks.sort((a, b) => b.mtime - a.mtime || b.path.localeCompare(a.path));
    if (tasks[0]) return tasks[0].path;
  }
  return undefined;
}

/** Token counts from the extension's ui_messages.json (`api_req_started` entries hold JSON text). */
function uiMessageUsage(ui: unknown): { input: number | null; output: number | null; cached: number | null; cost: number | null } {
  const requests = (Array.isArray(ui) ? ui : []).filter(isObject).filter((m) => m.say === 'api_req_started' && typeof m.text === 'string');
  const parts = requests.map((m) => parseJson(m.text as string)).filter(isObject) as JsonObject[];
  return {
    input: sum(parts.map((p) => sum([count(p.tokensIn), count(p.cacheReads)]))),
    output: sum(parts.map((p) => count(p.tokensOut))),
    cached: sum(parts.map((p) => count(p.cacheReads))),
    cost: sum(parts.map((p) => count(p.cost))),
  };
}

/**
 * Reads a legacy cline task folder (seed 004): the assistant's messages newest-first from
 * api_conversation_history.json; metrics from metadata.json (`token_counts.input/output`,
 * `cost_usd`, `duration_seconds`) or else from ui_messages.json.
 */
export async function readLegacyTask(dir: string): Promise<LegacyTask | undefined> {
  const taskDir = await findTaskDir(dir);
  if (!taskDir) return undefined;
  const history = await readJson(join(taskDir, 'api_conversation_history.json'));
  const meta = await readJson(join(taskDir, 'metadata.json'));
  const tokens = isObject(meta) && isObject(meta.token_counts) ? meta.token_counts : {};
  const ui = uiMessageUsage(await readJson(join(taskDir, 'ui_messages.json')));
  const seconds = isObject(meta) ? count(meta.duration_seconds) : null;
  return {
    id: taskDir.split(/[\\/]/).pop() ?? taskDir,
    assistantTexts: assistantTextsNewestFirst(history),
    inputTokens: count(tokens.input) ?? ui.input,
    outputTokens: count(tokens.output) ?? ui.output,
    cachedTokens: count(tokens.cached) ?? ui.cached,
    costUsd: (isObject(meta) ? count(meta.cost_usd) : null) ?? ui.cost,
    durationMs: seconds === null ? null : Math.round(seconds * 1000),
  };
}

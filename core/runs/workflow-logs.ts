/**
 * `workflow logs`: the output of a workflow's runs, interleaved as it arrives, each line tagged
 * with its task and role. The workflow's events say which runs exist (run_started); each run's
 * folder is read with the follower `runs tail` uses. Following ends when the workflow finishes
 * or its process is gone.
 */
import { join } from 'node:path';
import { RunFollower, type FollowItem } from './run-follow.ts';
import { statePaths } from '../state-dir.ts';
import { shortRunId } from '../workflow/engine/short-ids.ts';
import { WorkflowStore } from '../workflow/engine/store.ts';

export interface LogLine {
  task: string;
  role: string;
  run_id: string;
  /** `event` (a run's own event, described), `stdout` / `stderr` (the CLI's output), or `workflow` (a task's state). */
  stream: 'event' | 'stdout' | 'stderr' | 'workflow';
  text: string;
}

interface Followed {
  task: string;
  role: string;
  runId: string;
  follower: RunFollower;
}

export class WorkflowLogFollower {
  private readonly store: WorkflowStore;
  private readonly runsDir: string;
  private readonly task: string | undefined;
  private readonly describe: (event: FollowItem & { kind: 'event' }) => string | null;
  private seen = 0;
  private readonly runs: Followed[] = [];

  constructor(repoRoot: string, id: string, options: { task?: string; describe: (event: FollowItem & { kind: 'event' }) => string | null }) {
    this.store = new WorkflowStore(repoRoot, id);
    this.runsDir = statePaths(repoRoot).runs;
    this.task = options.task;
    this.describe = options.describe;
  }

  /** Whether the workflow still runs: a live process holds its lock. */
  running(): boolean {
    return this.store.owner() !== null;
  }

  /** What appeared since the last call (whole lines; everything when `flush`). */
  poll(flush = false): LogLine[] {
    const events = this.store.events();
    const lines: LogLine[] = [];
    // A task's state lines come after its runs' output read in the same poll (they happened after it).
    const states: LogLine[] = [];
    for (const e of events.slice(this.seen)) {
      if (e.kind !== 'run_started' && e.kind !== 'task_state' && e.kind !== 'setup') continue;
      if (this.task !== undefined && e.task !== this.task) continue;
      if (e.kind === 'setup') {
        const text = setupText(e);
        if (text) lines.push({ task: e.task, role: 'set-up', run_id: '', stream: 'workflow', text });
      } else if (e.kind === 'run_started') {
        this.runs.push({ task: e.task, role: e.role, runId: e.run_id, follower: new RunFollower(join(this.runsDir, e.run_id)) });
      } else if (e.state !== 'running') {
        states.push({ task: e.task, role: '-', run_id: '', stream: 'workflow', text: `${e.state}${e.reason !== undefined ? ` — ${e.reason}` : ''}` });
      }
    }
    this.seen = events.length;
    for (const run of this.runs) {
      if (run.follower.finished && !flush) continue;
      for (const item of run.follower.poll(flush)) {
        const base = { task: run.task, role: run.role, run_id: run.runId };
        if (item.kind === 'output') for (const text of item.text.split('\n')) lines.push({ ...base, stream: item.stream, text });
        else {
          const text = this.describe(item);
          if (text) lines.push({ ...base, stream: 'event', text });
        }
      }
    }
    return [...lines, ...states];
  }
}

/** A set-up step as one line (its command's output stays in events.jsonl); null for sandbox events. */
function setupText(e: Record<string, unknown>): string | null {
  if (e.step === 'command_started') return `running \`${String(e.command)}\``;
  if (e.step === 'command_finished') {
    const seconds = typeof e.duration_ms === 'number' ? ` in ${(e.duration_ms / 1000).toFixed(1)} s` : '';
    return `\`${String(e.command)}\` ${e.timed_out === true ? 'timed out' : `exited ${String(e.exit_code)}`}${seconds}`;
  }
  if (e.step === 'copied' && Array.isArray(e.paths) && e.paths.length) return `copied ${e.paths.join(', ')} from your checkout`;
  return null;
}

/** `[task role] text`, with the stream for stderr and the short run id on a run's events. */
export function renderLogLine(line: LogLine, width: number): string {
  const tag = `[${line.task} ${line.role}]`.padEnd(width);
  if (line.stream === 'event') return `${tag} ${shortRunId(line.run_id)}: ${line.text}`;
  if (line.stream === 'stderr') return `${tag} (err) ${line.text}`;
  return `${tag} ${compactJson(line.text) ?? line.text}`;
}

const SUMMARY_CHARS = 120;

/**
 * A CLI's JSON line (an envelope, a stream event) as one short line: its type and the first
 * line of any text it carries; null when the line is not a JSON object (shown as it is).
 * `--json` keeps the raw line.
 */
export function compactJson(text: string): string | null {
  if (!text.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  const kind = [o.type, o.subtype].filter((x) => typeof x === 'string').join('/') || 'json';
  const said = firstText(o);
  const line = said?.split('\n').find((l) => l.trim())?.trim();
  return `‹${kind}›${line ? ` ${line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line}` : ''}`;
}

/** The text a CLI's event carries, where the four CLIs put it (result, text, response, message content). */
function firstText(o: Record<string, unknown>): string | undefined {
  for (const key of ['result', 'text', 'response', 'delta', 'content']) if (typeof o[key] === 'string') return o[key] as string;
  const message = o.message as { content?: unknown } | undefined;
  if (message && Array.isArray(message.content)) {
    const part = message.content.find((c): c is { text: string } => typeof (c as { text?: unknown }).text === 'string');
    if (part) return part.text;
  }
  for (const nested of ['item', 'event', 'msg']) {
    if (o[nested] && typeof o[nested] === 'object') {
      const found = firstText(o[nested] as Record<string, unknown>);
      if (found) return found;
    }
  }
  return undefined;
}

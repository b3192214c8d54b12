/**
 * `--on-event <command>` and the plan's `on_event`: every workflow event, as it is written to
 * events.jsonl, is handed to each command (through the shell, in the repository root) as one
 * JSON line on stdin, with SUPERVISOR_EVENT set to its kind. Hooks run in order, one at a time,
 * off the engine's path: the engine never waits for one (each has a time limit), and a hook that
 * fails is a notice, never a failure. At the end the queue is drained so the last events arrive.
 */
import { runProcess } from '../../process/run-process.ts';
import { shellCommand } from '../../process/shell-command.ts';
import type { WorkflowEvent } from './store.ts';

export const HOOK_TIMEOUT_MS = 10_000;
/** Events waiting at most; beyond, the oldest are dropped (hooks far slower than the workflow). */
const MAX_QUEUED = 500;

export interface EventHooks {
  emit(event: WorkflowEvent): void;
  /** Waits for every queued event to reach every hook. */
  drain(): Promise<void>;
}

export interface EventHookOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs?: number;
  /** A hook that failed (first failure per command; later ones are counted). */
  onNotice?: (message: string) => void;
}

export function createEventHooks(commands: string[], options: EventHookOptions): EventHooks {
  if (!commands.length) return { emit: () => {}, drain: async () => {} };
  const queue: WorkflowEvent[] = [];
  const failures = new Map<string, number>();
  let dropped = 0;
  let running: Promise<void> | null = null;

  const spawnHook = (command: string, event: WorkflowEvent) =>
    runProcess({
      ...shellCommand(command),
      cwd: options.cwd,
      env: { ...options.env, SUPERVISOR_EVENT: event.kind },
      stdin: `${JSON.stringify(event)}\n`,
      timeoutMs: options.timeoutMs ?? HOOK_TIMEOUT_MS,
      graceMs: 500,
      maxOutputBytes: 16 * 1024,
    });

  const runOne = async (command: string, event: WorkflowEvent) => {
    let proc = await spawnHook(command, event);
    // A busy machine can refuse a fork for a moment (EAGAIN): one more try, so no event is lost to it.
    if (proc.spawnError && !proc.notFound) {
      await new Promise((r) => setTimeout(r, 100));
      proc = await spawnHook(command, event);
    }
    if (proc.exitCode === 0 && !proc.timedOut) return;
    const count = (failures.get(command) ?? 0) + 1;
    failures.set(command, count);
    if (count > 1) return;
    const why = proc.timedOut ? `timed out after ${Math.round((options.timeoutMs ?? HOOK_TIMEOUT_MS) / 1000)}s` : proc.notFound || proc.spawnError ? `could not start: ${proc.spawnError ?? 'not found'}` : `exit ${proc.exitCode}`;
    const tail = proc.stderr.trim().split('\n').slice(-1)[0] ?? '';
    options.onNotice?.(`on-event hook \`${command}\` failed on ${event.kind} (${why})${tail ? `: ${tail.slice(0, 200)}` : ''}; the workflow goes on (later failures of it are counted)`);
  };

  const pump = async () => {
    for (let event = queue.shift(); event; event = queue.shift()) {
      for (const command of commands) await runOne(command, event).catch(() => {});
    }
    running = null;
  };

  return {
    emit(event) {
      queue.push(event);
      if (queue.length > MAX_QUEUED) {
        queue.shift();
        dropped++;
      }
      running ??= pump();
    },
    async drain() {
      while (running) await running;
      if (dropped) options.onNotice?.(`on-event hooks: ${dropped} events were dropped (the hooks were slower than the workflow)`);
      for (const [command, count] of failures) if (count > 1) options.onNotice?.(`on-event hook \`${command}\` failed ${count} times in all`);
    },
  };
}

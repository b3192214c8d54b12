/**
 * The ready queue: a task starts as soon as every task it depends on is integrated, up to
 * `jobs` at once (no layers: a slow task never holds back an unrelated one). A dependency that
 * ended any other way skips its dependents, with the reason; independent tasks go on. Once the
 * workflow halts (cost ceiling, Ctrl-C) nothing new starts and the running tasks wind down.
 */
import { setState, type Engine, type TaskRecord } from './context.ts';
import { runTask } from './run-task.ts';
import { FINAL_TASK_STATES } from './store.ts';

/** Marks tasks whose dependencies can no longer be integrated as skipped; true when one changed. */
function skipBlocked(engine: Engine): boolean {
  let changed = false;
  for (const record of engine.tasks.values()) {
    if (record.state !== 'pending') continue;
    const dead = record.task.depends_on.map((id) => engine.tasks.get(id)!).find((dep) => FINAL_TASK_STATES.includes(dep.state) && dep.state !== 'integrated');
    if (!dead) continue;
    record.issues = [`skipped: it depends on ${dead.task.id}, which ended ${dead.state}`];
    setState(engine, record, 'skipped', { reason: `${record.issues[0]!}${dead.why ? ` (${dead.why})` : ''}` });
    changed = true;
  }
  return changed;
}

function ready(engine: Engine): TaskRecord[] {
  return [...engine.tasks.values()].filter((r) => r.state === 'pending' && r.task.depends_on.every((id) => engine.tasks.get(id)!.state === 'integrated'));
}

export async function schedule(engine: Engine): Promise<void> {
  const running = new Map<string, Promise<void>>();
  let failure: unknown = null;
  for (;;) {
    while (skipBlocked(engine));
    if (!engine.halt && !engine.options.signal?.aborted && failure === null) {
      for (const record of ready(engine)) {
        if (running.size >= engine.jobs) break;
        if (running.has(record.task.id)) continue;
        const work = runTask(engine, record)
          .catch((error: unknown) => {
            // An engine bug or a git failure: this task stops, the others wind down, the error goes on.
            failure ??= error;
          })
          .finally(() => running.delete(record.task.id));
        running.set(record.task.id, work);
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  if (failure !== null) throw failure;
}

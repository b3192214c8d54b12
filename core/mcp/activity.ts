/**
 * Everything the server has started and not seen finish: runs and workflows, each with its
 * AbortController. A run lives only while the server does: when the client goes away (stdin
 * closes) or a signal comes, `stopAll` aborts every one of them as Ctrl-C would (their process
 * trees ended, workflows recorded `interrupted`, resumable) and waits until they have settled.
 */
import { mcpErrors } from './errors.ts';

export class Activity {
  private readonly controllers = new Set<AbortController>();
  private readonly pending = new Set<Promise<unknown>>();
  private stopReason: string | null = null;

  /**
   * Starts `work` with a signal of its own, aborted by `stopAll` and, when given, by `cancel`
   * (the MCP request's own signal: the client cancelled it) with reason SIGINT, as Ctrl-C.
   */
  start<T>(work: (signal: AbortSignal) => Promise<T>, cancel?: AbortSignal): Promise<T> {
    if (this.stopReason !== null) throw mcpErrors.stopping();
    const controller = new AbortController();
    const onCancel = () => controller.abort('SIGINT');
    if (cancel?.aborted) onCancel();
    else cancel?.addEventListener('abort', onCancel, { once: true });
    this.controllers.add(controller);
    const running = work(controller.signal).finally(() => {
      cancel?.removeEventListener('abort', onCancel);
      this.controllers.delete(controller);
      this.pending.delete(running);
    });
    this.pending.add(running);
    return running;
  }

  get stopping(): boolean {
    return this.stopReason !== null;
  }

  get running(): number {
    return this.pending.size;
  }

  /** Aborts everything with `reason` (a stop signal's name: it sets how each run ends) and waits for all to settle. */
  async stopAll(reason: string): Promise<void> {
    this.stopReason ??= reason;
    for (const controller of this.controllers) if (!controller.signal.aborted) controller.abort(reason);
    await Promise.allSettled([...this.pending]);
  }
}

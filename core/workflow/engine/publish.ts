/**
 * Integration into a shared remote (`workflow task --remote`, core/workflow/remote/): the merge
 * queue publishes each candidate there, by compare-and-swap, before its own branch moves. The
 * engine knows only this interface; the remote's git is core/workflow/remote's.
 */
export interface IntegrationPublisher {
  /** The integration commit's message as the remote's history carries it (its trailer names the remote's workflow). */
  message(local: string): string;
  /** Moves the remote's integration branch from `tip` to `commit`: false when it is no longer at `tip` (the lease failed). */
  publish(commit: string, tip: string): Promise<boolean>;
  /** After a failed lease: the remote's tip now (fetched), and whether this task is on it already. */
  refresh(): Promise<{ tip: string; integrated: boolean }>;
  /** How long to wait before retry `n` (1, 2, ...); null: no more retries (REMOTE_CONTENDED). */
  backoffMs(n: number): number | null;
}

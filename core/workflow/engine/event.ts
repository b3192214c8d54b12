/** One line of a workflow's events.jsonl, as the engine writes it and every reader folds it. */
export interface WorkflowEvent {
  ts: string;
  kind: 'workflow_started' | 'workflow_resumed' | 'task_state' | 'worktree_ready' | 'setup' | 'run_started' | 'run_finished' | 'merged' | 'conflict' | 'gates' | 'notice' | 'workflow_finished'
    // A slot set aside (workspace_broken, or work the commit cannot hold); the integration branch found moved and restored.
    | 'slot_set_aside' | 'integration_moved'
    // A person's decision on a task awaiting approval (approval.ts); the result handed on (finish.ts).
    | 'approval' | 'handed_on'
    // The merge queue's gates on a candidate or the tip (gates_started, gates_passed); quota pauses (ledger).
    | 'gates_started' | 'gates_passed' | 'quota_pause' | 'quota_resumed';
  [key: string]: unknown;
}

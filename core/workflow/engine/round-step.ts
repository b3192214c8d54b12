/**
 * A task's round loop as a transition function: `next(state, outcome)` gives the loop's next
 * state and says what the executor
 * (run-task.ts) does next, from what the last step came to. No I/O here. A person's decision,
 * a resume and a retry are initial states (`startStep`), not code paths of their own.
 */
import type { Decision } from './state.ts';

export type Feedback = { role: string; issues: string[] }[];

export interface LoopState {
  round: number;
  maxRounds: number;
  /** The task needs a person's approval before its merge. */
  approve: boolean;
  branch: string;
  /** The integration tip a conflict round merged (every later round must still contain it); null: no conflict round yet. */
  conflictTip: string | null;
}

export interface Transition {
  state: LoopState;
  step: Step;
}

export type Step =
  /** Run the worker (then the reviewers) in `round` with `feedback`. */
  | { do: 'work'; round: number; feedback: Feedback; conflicts: string[] }
  /** Reviewers passed and the task needs a person: wait (or take --approve-all's approval). */
  | { do: 'hold' }
  /** Into the merge queue. */
  | { do: 'merge' }
  /** The merge conflicted: start the merge of the new tip in the worktree for one more round. */
  | { do: 'start_conflict'; files: string[] }
  /** The task ends here with this state, issues and reason. */
  | { do: 'finish'; state: 'gaps' | 'blocked'; issues: string[]; reason?: string }
  /** Nothing more for this task now (merged, halted, waiting, or ended by the executor). */
  | { do: 'end' };

export type Outcome =
  /** The round was judged: the reviewers' (or the worker's own) feedback; empty: all passed. */
  | { kind: 'judged'; feedback: Feedback }
  /** A person approved (or --approve-all did): go on to the merge. */
  | { kind: 'approved' }
  | { kind: 'held' }
  | { kind: 'merged' }
  | { kind: 'halted' }
  | { kind: 'gate_failed'; feedback: string; reason: string }
  | { kind: 'conflict'; files: string[] }
  | { kind: 'conflict_started'; tip: string; conflicts: string[] };

const issuesOf = (feedback: Feedback) => feedback.flatMap(({ role, issues }) => issues.map((i) => `[${role}] ${i}`));

/** The first step: a rejection's next round, an approval's merge, or the round the task stands at with the feedback it carries. */
export function startStep(decision: Decision | null, round: number, feedback: Feedback): Step {
  if (decision?.decision === 'approved') return { do: 'merge' };
  if (decision?.decision === 'rejected') return { do: 'work', round: decision.round + 1, feedback: [{ role: `person: ${decision.by}`, issues: decision.issues }], conflicts: [] };
  return { do: 'work', round: Math.max(round, 1), feedback, conflicts: [] };
}

/** The round a task starts at (set-up is shown with it). */
export function startRound(decision: Decision | null, round: number): number {
  const step = startStep(decision, round, []);
  return step.do === 'work' ? step.round : (decision?.round ?? round);
}

const stay = (state: LoopState, step: Step): Transition => ({ state, step });
const work = (state: LoopState, round: number, feedback: Feedback, conflicts: string[] = []): Transition => ({ state: { ...state, round }, step: { do: 'work', round, feedback, conflicts } });

/** The next round with `feedback`, or the end of the task when this was the last one. */
function again(state: LoopState, feedback: Feedback, reason?: string): Transition {
  if (state.round >= state.maxRounds) {
    const last = feedback.map(({ role }) => role).join(', ');
    return stay(state, { do: 'finish', state: 'gaps', issues: issuesOf(feedback), reason: reason ?? `round ${state.round} of ${state.maxRounds} (the last) ended with gaps from ${last}` });
  }
  return work(state, state.round + 1, feedback);
}

/** What comes after `outcome` in `state`. */
export function next(state: LoopState, outcome: Outcome): Transition {
  switch (outcome.kind) {
    case 'judged':
      if (outcome.feedback.length) return again(state, outcome.feedback);
      return stay(state, state.approve ? { do: 'hold' } : { do: 'merge' });
    case 'approved':
      return stay(state, { do: 'merge' });
    case 'held':
    case 'merged':
    case 'halted':
      return stay(state, { do: 'end' });
    case 'gate_failed':
      return again(state, [{ role: 'workflow-gate', issues: [outcome.feedback] }], outcome.reason);
    case 'conflict':
      if (state.conflictTip) return stay(state, { do: 'finish', state: 'blocked', issues: [`merge conflict with the integration branch in: ${outcome.files.join(', ')} (after one more round on the new tip); the work stays on ${state.branch}`] });
      return stay(state, { do: 'start_conflict', files: outcome.files });
    case 'conflict_started':
      return work({ ...state, conflictTip: outcome.tip }, state.round + 1, [], outcome.conflicts);
  }
}

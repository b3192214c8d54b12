/** A person's decision on a task awaiting approval. */
export interface ApprovalDecision {
  decision: 'approved' | 'rejected';
  /** The OS user who decided (or `<user> (--approve-all)`). */
  by: string;
  /** A rejection's issues: the worker's next round's feedback. */
  issues: string[];
}

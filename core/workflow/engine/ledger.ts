/**
 * The cost ceiling as a ledger with reservations, in integer micro-dollars (core/money.ts).
 * Each run reserves its share of what is left before it starts (what is left divided among the
 * job slots not yet holding a reservation), so two runs started side by side are never both
 * handed the whole remainder; a run's reservation is its CLI's budget (claude's
 * --max-budget-usd). When it ends, the reservation is replaced by what the run spent. A run
 * whose cost is unknown (codex, gemini) is counted as unknown, never as 0: the ceiling cannot
 * be enforced for it, and the ledger says so.
 */
import { fromMicros, toMicros } from '../../money.ts';

/** Below this (unless the plan or --min-run-usd says otherwise) no run starts: it could do nothing useful. */
export const DEFAULT_MIN_RUN_USD = 0.01;

export type Reservation = { ok: true; id: number; budgetUsd: number | undefined } | { ok: false; leftUsd: number };

export interface LedgerSummary {
  /** The ceiling in dollars (null: none). */
  ceiling_usd: number | null;
  /** No run starts when what is left is below this. */
  min_run_usd: number;
  /** Known spend of every run, this process and the ones before it. */
  spent_usd: number;
  /** Sum of the budgets handed to runs in this process. */
  reserved_usd: number;
  /** Runs whose CLI did not report a cost. */
  unknown_cost_runs: number;
  /** False once a run's cost is unknown (ceiling or not): a ceiling could not be held for it. */
  enforced: boolean;
}

export class CostLedger {
  private readonly ceiling: number | null;
  private readonly floor: number;
  private spent = 0;
  private reservedTotal = 0;
  private unknownRuns = 0;
  private nextId = 1;
  private readonly open = new Map<number, number>();

  constructor(ceilingUsd: number | null, minRunUsd = DEFAULT_MIN_RUN_USD) {
    this.ceiling = ceilingUsd === null ? null : toMicros(ceilingUsd);
    this.floor = toMicros(minRunUsd);
  }

  get hasCeiling(): boolean {
    return this.ceiling !== null;
  }

  get spentUsd(): number {
    return fromMicros(this.spent);
  }

  get unknownCostRuns(): number {
    return this.unknownRuns;
  }

  /** What is left of the ceiling after what was spent and what running runs hold. */
  leftUsd(): number {
    if (this.ceiling === null) return Infinity;
    return fromMicros(this.ceiling - this.spent - [...this.open.values()].reduce((a, b) => a + b, 0));
  }

  /**
   * A reservation for one run, `jobs` being how many runs may run at once: its share of what is
   * left, at least the floor when that much is left; refused below the floor.
   */
  reserve(jobs: number): Reservation {
    const id = this.nextId++;
    if (this.ceiling === null) {
      this.open.set(id, 0);
      return { ok: true, id, budgetUsd: undefined };
    }
    const left = this.ceiling - this.spent - [...this.open.values()].reduce((a, b) => a + b, 0);
    if (left < this.floor || left <= 0) {
      this.nextId--;
      return { ok: false, leftUsd: fromMicros(Math.max(0, left)) };
    }
    const freeSlots = Math.max(1, jobs - this.open.size);
    const share = Math.max(Math.floor(left / freeSlots), Math.min(left, this.floor));
    this.open.set(id, share);
    this.reservedTotal += share;
    return { ok: true, id, budgetUsd: fromMicros(share) };
  }

  /** The run ended: its reservation goes, its cost (null: unknown) is booked. */
  settle(id: number | null, costUsd: number | null): void {
    if (id !== null) this.open.delete(id);
    this.book(costUsd);
  }

  /** A run of an earlier process, from the event log. */
  book(costUsd: number | null): void {
    if (costUsd === null) this.unknownRuns++;
    else this.spent += toMicros(costUsd);
  }

  summary(): LedgerSummary {
    return {
      ceiling_usd: this.ceiling === null ? null : fromMicros(this.ceiling),
      min_run_usd: fromMicros(this.floor),
      spent_usd: fromMicros(this.spent),
      reserved_usd: fromMicros(this.reservedTotal),
      unknown_cost_runs: this.unknownRuns,
      // Unknown costs make it false with or without a ceiling: nothing could have been held for them.
      enforced: this.unknownRuns === 0,
    };
  }
}

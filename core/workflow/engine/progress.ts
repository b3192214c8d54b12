/**
 * Progress of a running workflow on stderr. On a terminal: a live table (task, state, round,
 * CLI, cost, elapsed) redrawn in place. Otherwise: one line per state change, for logs.
 */
import { formatUsd } from '../../money.ts';
import { sanitizeTerminal } from '../../text/sanitize-terminal.ts';
import type { ProgressEvent } from './context.ts';

interface Row {
  task: string;
  state: string;
  round: number;
  role: string;
  cli: string;
  cost: number;
  since: number | null;
  done: number | null;
}

export interface ProgressView {
  update(event: ProgressEvent): void;
  /** A line of its own (a notice): above the live table, which is drawn again below it. */
  note(line: string): void;
  stop(): void;
}

const FINAL = new Set(['integrated', 'gaps', 'error', 'blocked', 'skipped']);

export function describeProgress(event: ProgressEvent): string {
  const what = event.state === 'running' ? `running${event.role ? ` ${event.role}` : ''}${event.cli ? ` (${event.cli})` : ''}, round ${event.round}` : event.state;
  // Back to running without a role: sent back (a failing merge-queue gate): the reason is the news.
  const sentBack = event.state === 'running' && !event.role;
  return `workflow: ${event.task}: ${what}${event.reason && (sentBack || !['running', 'integrating', 'integrated'].includes(event.state)) ? ` — ${event.reason}` : ''}`;
}

function seconds(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

function renderTable(rows: Row[], now: number): string[] {
  const cells = rows.map((r) => [
    r.task,
    r.state === 'running' ? `${r.state} ${r.role}` : r.state,
    r.round ? String(r.round) : '-',
    r.cli || '-',
    formatUsd(r.cost),
    r.since === null ? '-' : seconds((r.done ?? now) - r.since),
  ]);
  const head = ['TASK', 'STATE', 'ROUND', 'CLI', 'COST', 'ELAPSED'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(head), ...cells.map(line)];
}

/** Lines per state change (not a terminal), or a live table (a terminal). */
export function createProgressView(write: (text: string) => void, isTTY: boolean, taskIds: string[], now: () => number = Date.now): ProgressView {
  // Reasons and notices quote model and plan text: through the one sanitiser, as every workflow output.
  // A task's state as taken over from the record (resume, approve, retry) is a line only on the table.
  if (!isTTY) return { update: (event) => (event.restored ? undefined : write(`${sanitizeTerminal(describeProgress(event))}\n`)), note: (line) => write(`${sanitizeTerminal(line)}\n`), stop: () => {} };
  const rows = new Map<string, Row>(taskIds.map((task) => [task, { task, state: 'pending', round: 0, role: '', cli: '', cost: 0, since: null, done: null }]));
  let drawn = 0;
  const draw = (above = '') => {
    const lines = renderTable([...rows.values()], now());
    // Up over the last table, clear to the end of the screen, (a note,) draw again.
    write(`${drawn ? `\x1b[${drawn}A` : ''}\x1b[0J${sanitizeTerminal(above)}${sanitizeTerminal(lines.join('\n'))}\n`);
    drawn = lines.length;
  };
  const timer = setInterval(draw, 1000);
  timer.unref();
  return {
    update(event) {
      const row = rows.get(event.task);
      if (!row) return;
      row.state = event.state;
      row.round = event.round;
      row.cost = event.cost_usd;
      if (event.role) row.role = event.role;
      if (event.cli) row.cli = event.cli;
      if (event.state === 'running' && row.since === null) row.since = now();
      row.done = FINAL.has(event.state) ? now() : null;
      draw();
    },
    note(line) {
      draw(`${line}\n`);
    },
    stop() {
      clearInterval(timer);
      if (drawn) draw();
    },
  };
}

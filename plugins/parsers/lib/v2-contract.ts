/** The v2 result contract (seed 003): its roles, statuses and acceptance matrix, as data. */

export const V2_ROLES = ['worker', 'spec-reviewer', 'code-quality-reviewer'] as const;
export type V2Role = (typeof V2_ROLES)[number];
export const V2_STATUSES = ['pass', 'gaps', 'error'] as const;
export type V2Status = (typeof V2_STATUSES)[number];

function isV2Role(value: unknown): value is V2Role {
  return (V2_ROLES as readonly unknown[]).includes(value);
}

/**
 * Which fields a v2 result must carry, by role and status. Deviation from seed 003, which
 * assumed the worker commits: supervisor commits the worker's changes and records the range
 * itself, so a passing worker's `git_range` is optional (the run's own range fills the result;
 * a reported range that disagrees is a notice).
 */
export const ACCEPTANCE_MATRIX: ReadonlyArray<{ role: V2Role; statuses: readonly V2Status[]; required: readonly string[] }> = [
  { role: 'worker', statuses: ['pass'], required: ['task_id', 'status'] },
  { role: 'worker', statuses: ['gaps', 'error'], required: ['task_id', 'status', 'issues'] },
  { role: 'spec-reviewer', statuses: ['pass'], required: ['task_id', 'status'] },
  { role: 'spec-reviewer', statuses: ['gaps', 'error'], required: ['task_id', 'status', 'issues'] },
  { role: 'code-quality-reviewer', statuses: ['pass'], required: ['task_id', 'status'] },
  { role: 'code-quality-reviewer', statuses: ['gaps', 'error'], required: ['task_id', 'status', 'issues'] },
];

export interface Violation {
  pointer: string;
  message: string;
  keyword: string;
}

function present(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;
}

/** The fields the acceptance matrix asks for that the result lacks (task_id and status always). */
export function acceptanceViolations(result: Record<string, unknown>): Violation[] {
  const row = ACCEPTANCE_MATRIX.find((r) => r.role === result.role && (r.statuses as readonly unknown[]).includes(result.status));
  const required = row?.required ?? ['task_id', 'status'];
  const when = row ? ` when role is ${String(result.role)} and status is ${String(result.status)}` : '';
  return required
    .filter((field) => !present(result[field]))
    .map((field) => ({ pointer: `/${field}`, keyword: 'required', message: `missing: ${field} is required${when} (v2 acceptance matrix)` }));
}

/** The role the run was for, when it is (or extends) a v2 role. */
export function expectedV2Role(role: { name: string; baseRole: string | null } | undefined): V2Role | undefined {
  if (!role) return undefined;
  if (isV2Role(role.name)) return role.name;
  return isV2Role(role.baseRole) ? role.baseRole : undefined;
}

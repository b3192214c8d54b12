/**
 * The planner's answer (schemas/plan.json) → a workflow file a person reads and edits before
 * running it. Each phase becomes a task. Dependencies: a phase's own `depends_on` (ids, names
 * or 1-based numbers); else the plan's `dependencies` entries ({from, to}: from waits for to),
 * when any of them links two phases; else the phase before it (phase order is a dependency).
 * References that name no phase are dropped with a notice, so the file always loads.
 */
import { isAbsolute, normalize } from 'node:path';
import { Document } from 'yaml';
import { isValidId } from './check-workflow.ts';
import { slugify } from './resolve-workflow.ts';

type Phase = Record<string, unknown>;

export interface PlannedWorkflow {
  name: string;
  tasks: { id: string; title: string; depends_on: string[]; files?: string[]; task: string }[];
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.flatMap((v) => str(v) ?? str((v as { path?: unknown } | null)?.path) ?? []) : str(value) ? [str(value)!] : [];

/** Fields rendered in a fixed order; any other field of a phase follows as "Key: value". */
const KNOWN = new Set(['id', 'name', 'title', 'description', 'goal', 'files', 'tests', 'acceptance_criteria', 'depends_on']);

function phaseTitle(phase: Phase, n: number): string {
  return str(phase.name) ?? str(phase.title) ?? str(phase.goal)?.split('\n')[0] ?? `Phase ${n}`;
}

function uniqueIds(phases: Phase[]): string[] {
  const used = new Set<string>();
  return phases.map((phase, i) => {
    const own = str(phase.id);
    let id = own && isValidId(own) ? own : own ? slugify(own) : `phase-${i + 1}`;
    for (let k = 2; used.has(id); k++) id = `${own && isValidId(own) ? own : `phase-${i + 1}`}-${k}`;
    used.add(id);
    return id;
  });
}

function renderList(label: string, items: string[]): string[] {
  return items.length ? ['', `${label}:`, ...items.map((item) => `- ${item}`)] : [];
}

function taskText(phase: Phase, title: string, goal: string): string {
  const lines = [`Part of the plan for: ${goal}`, '', `## ${title}`];
  const body = str(phase.description) ?? str(phase.goal);
  if (body) lines.push('', body);
  lines.push(...renderList('Files', strings(phase.files)), ...renderList('Tests', strings(phase.tests)), ...renderList('Acceptance criteria', strings(phase.acceptance_criteria)));
  for (const [key, value] of Object.entries(phase)) {
    if (KNOWN.has(key) || value === null || value === undefined) continue;
    lines.push('', `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A reference to a phase → its task id: an id, a name, "phase 2", "2" or 2. */
function resolver(phases: Phase[], ids: string[]): (ref: unknown) => string | undefined {
  return (ref) => {
    const text = typeof ref === 'number' ? String(ref) : str(ref);
    if (!text) return undefined;
    const byId = ids.indexOf(text);
    if (byId >= 0) return ids[byId];
    const byName = phases.findIndex((p, i) => [str(p.id), str(p.name), str(p.title), ids[i]].some((n) => n?.toLowerCase() === text.toLowerCase()));
    if (byName >= 0) return ids[byName];
    const number = /^(?:phase[\s_-]*)?(\d+)$/i.exec(text)?.[1];
    return number && Number(number) >= 1 && Number(number) <= ids.length ? ids[Number(number) - 1] : undefined;
  };
}

export function planToWorkflow(output: Record<string, unknown>, goal: string, notice: (message: string) => void): PlannedWorkflow {
  const phases = (Array.isArray(output.phases) ? output.phases : []).filter((p): p is Phase => typeof p === 'object' && p !== null && !Array.isArray(p));
  const ids = uniqueIds(phases);
  const resolve = resolver(phases, ids);
  const edges = new Map<string, string[]>();
  for (const dep of Array.isArray(output.dependencies) ? output.dependencies : []) {
    const from = resolve((dep as { from?: unknown } | null)?.from);
    const to = resolve((dep as { to?: unknown } | null)?.to);
    if (from && to && from !== to) edges.set(from, [...(edges.get(from) ?? []), to]);
  }
  const tasks = phases.map((phase, i) => {
    const id = ids[i]!;
    let depends: string[];
    if (Array.isArray(phase.depends_on)) {
      depends = phase.depends_on.flatMap((ref) => {
        const found = resolve(ref);
        if (!found || found === id) notice(`phase ${i + 1} ("${phaseTitle(phase, i + 1)}"): depends_on ${JSON.stringify(ref)} names no other phase; left out`);
        return found && found !== id ? [found] : [];
      });
    } else depends = edges.size ? (edges.get(id) ?? []) : i > 0 ? [ids[i - 1]!] : [];
    const title = phaseTitle(phase, i + 1);
    const files = strings(phase.files).filter((file) => {
      const inside = !isAbsolute(file) && normalize(file).split(/[\\/]/)[0] !== '..';
      if (!inside) notice(`phase ${i + 1} ("${title}"): the file ${file} is outside the repository; left out of files`);
      return inside;
    });
    // Key order is the file's: the short fields first, the long task text last.
    return { id, title, depends_on: [...new Set(depends)], ...(files.length ? { files } : {}), task: taskText(phase, title, goal) };
  });
  const firstLine = goal.trim().split('\n')[0]!.trim();
  return { name: firstLine.length > 80 ? `${firstLine.slice(0, 77)}...` : firstLine || 'Planned workflow', tasks };
}

/** The workflow file's text: the header comment (what it is, how to check and run it), then the plan. */
export function renderPlannedWorkflow(workflow: PlannedWorkflow, header: string[]): string {
  const doc = new Document(workflow);
  doc.commentBefore = header.map((line) => ` ${line}`).join('\n');
  return doc.toString({ lineWidth: 0 });
}

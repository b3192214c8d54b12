/** What both generators share beyond the jobs: their result, YAML text, dependency depth. */
import { Scalar, stringify } from 'yaml';
import type { PipelineJob } from './pipeline-jobs.ts';

export interface PipelineFile {
  /** The pipeline file's text: deterministic (no dates; the plan's order). */
  text: string;
  jobs: PipelineJob[];
  /** What the export changed to fit the engine (e.g. GitLab's stages fallback), for stderr and --json. */
  notices: string[];
}

/** Top-level keys as YAML, one block each, separated by a blank line; no folding of long lines. */
export function yamlBlocks(entries: [string, unknown][]): string {
  return entries.map(([key, value]) => stringify({ [key]: value }, { lineWidth: 0, minContentWidth: 0 })).join('\n');
}

/** A shell line as a single-quoted YAML scalar: its `"` and `$` stay as written, easy to read. */
export function shellLine(command: string): Scalar<string> {
  const scalar = new Scalar(command);
  scalar.type = Scalar.QUOTE_SINGLE;
  return scalar;
}

/** Each job's dependency depth: 0 without needs, else one more than its deepest need. */
export function dependencyLevels(jobs: PipelineJob[]): Map<string, number> {
  const byName = new Map(jobs.map((job) => [job.name, job]));
  const levels = new Map<string, number>();
  const levelOf = (name: string, seen: Set<string>): number => {
    const known = levels.get(name);
    if (known !== undefined) return known;
    // The plan was checked for cycles; a cycle here would be a bug, not a plan's fault.
    if (seen.has(name)) throw new Error(`dependency cycle through the job ${name}`);
    seen.add(name);
    const needs = byName.get(name)?.needs ?? [];
    const level = needs.length ? 1 + Math.max(...needs.map((n) => levelOf(n, seen))) : 0;
    levels.set(name, level);
    return level;
  };
  for (const job of jobs) levelOf(job.name, new Set());
  return levels;
}

/**
 * plan-markdown: reads plan files in seed 003's format, as they are. A plan is a `# Title`, a
 * header (Goal, Architecture, patterns, `**Plan Baseline:** <sha>` = the base), then
 * `### Task N: title` sections holding `**Files:**` (a list of paths), `**Model:**`,
 * `**review:** full | spec-only | none` and `**Depends on:** none | N[, M]`. A section runs to
 * the next `Task N:` heading or to a heading of a higher rank (`## Phase Estimates`); its own
 * `### ...` headings, and anything inside fenced code blocks (_markdown-lines.ts), belong to it.
 *
 * Task ids are `task-N` (they name branches and read well in logs); `Depends on: 3` is task-3.
 * Each task's text is the plan's header (as context: the goal, architecture and anti-patterns
 * hold for every task and a worker sees only its own task) followed by the whole section.
 */
import { definePlugin, isReviewLevel, reviewersForLevel, type PlanReadContext, type WorkflowInput } from '../../core/plugin-api/index.ts';
import { planLines, type PlanLine as Line } from './_markdown-lines.ts';

type TaskInput = WorkflowInput['tasks'][number];

const TASK_HEADING = /^Task[ \t]+(\d+)(?:[ \t]*[:.)-][ \t]*(.*))?$/i;
const FIELD = /^\*\*([A-Za-z][A-Za-z ]*?):?\*\*:?[ \t]*(.*)$/;
const LIST_ITEM = /^[ \t]*[-*+][ \t]+(.*)$/;

const unquote = (value: string) => value.trim().replace(/^`+|`+$/g, '').trim();

/** Paths in a Files list item: every `code span`, else the first word after a "Modify:"-like label; line ranges (`a.md:94-138`) dropped. */
function pathsOf(item: string): string[] {
  const spans = [...item.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim());
  const candidates = spans.length ? spans : [item.replace(/^[A-Za-z ]+:[ \t]+/, '').trim().split(/\s+/)[0] ?? ''];
  return candidates.map((p) => p.replace(/:\d+(?:-\d+)?$/, '')).filter((p) => p && !/\s/.test(p));
}

/** Task numbers past this are no plan's (and past 2^53 they are not even numbers). */
const MAX_TASK_NUMBER = 100_000;

/**
 * Task numbers in a Depends on value: "3", "1, 2", "Task 1 and Task 2", "1-3" (a range). A
 * number too large to be a task's is returned as found, for the caller to refuse.
 */
function taskNumbers(value: string): { numbers: string[]; tooLarge: string | null } {
  const numbers: string[] = [];
  for (const m of value.matchAll(/(?:^|[\s,(])(?:tasks?[ \t-]*)?(\d+)(?:[ \t]*[-–][ \t]*(\d+))?\b/gi)) {
    const from = Number(m[1]);
    if (from > MAX_TASK_NUMBER) return { numbers, tooLarge: m[1]! };
    if (m[2] !== undefined && Number(m[2]) > MAX_TASK_NUMBER) return { numbers, tooLarge: m[2] };
    const to = m[2] === undefined ? from : Math.min(Number(m[2]), from + 100);
    for (let n = from; n <= to; n++) numbers.push(String(n));
  }
  return { numbers, tooLarge: null };
}

interface Section {
  number: string;
  title: string;
  heading: Line;
  lines: Line[];
}

function taskFields(section: Section, index: number, ctx: PlanReadContext): Partial<TaskInput> & { hasBody: boolean } {
  const out: Partial<TaskInput> & { hasBody: boolean } = { hasBody: false };
  const where = `/tasks/${index}`;
  const task = `task-${section.number}`;
  const at = (line: Line, field: string) => ctx.locate(`${where}/${field}`, line.number);
  const fail = (line: Line, field: string, message: string) =>
    ctx.error({ pointer: `${where}/${field}`, line: line.number, task, message: `in "${section.heading.text}": ${message}` });
  const seen = new Set<string>();
  for (let i = 0; i < section.lines.length; i++) {
    const line = section.lines[i]!;
    const field = line.fenced ? null : FIELD.exec(line.text.trim());
    const key = field?.[1]!.toLowerCase();
    if (!field || !key || seen.has(key) || !['files', 'model', 'review', 'depends on', 'approve'].includes(key)) {
      if (line.text.trim() && !/^(?:-{3,}|\*{3,}|_{3,})$/.test(line.text.trim())) out.hasBody = true;
      continue;
    }
    seen.add(key);
    const value = field[2]!.trim();
    if (key === 'model') {
      at(line, 'model');
      if (unquote(value)) out.model = unquote(value);
    } else if (key === 'review') {
      at(line, 'reviewers');
      const level = unquote(value).toLowerCase();
      if (!isReviewLevel(level)) throw fail(line, 'reviewers', `**review:** must be full, spec-only or none, not "${value}"`);
      out.reviewers = reviewersForLevel(level);
    } else if (key === 'approve') {
      at(line, 'approve');
      const answer = unquote(value).toLowerCase();
      if (!['yes', 'no', 'true', 'false'].includes(answer)) throw fail(line, 'approve', `**approve:** must be yes or no, not "${value}"`);
      out.approve = answer === 'yes' || answer === 'true';
    } else if (key === 'depends on') {
      at(line, 'depends_on');
      if (/^none\b/i.test(unquote(value)) || !value) out.depends_on = [];
      else {
        const found = taskNumbers(value);
        if (found.tooLarge !== null) throw fail(line, 'depends_on', `**Depends on:** ${found.tooLarge} is not a task number (at most ${MAX_TASK_NUMBER})`);
        const numbers = found.numbers.map((n) => `task-${n}`);
        if (!numbers.length) throw fail(line, 'depends_on', `**Depends on:** must be none or task numbers (e.g. "1, 3"), not "${value}"`);
        out.depends_on = [...new Set(numbers)];
      }
    } else {
      at(line, 'files');
      const files = value ? value.split(',').flatMap(pathsOf) : [];
      // The list below the label: its items, up to the first line that is not one (one blank line allowed first).
      let j = i + 1;
      if (!files.length && section.lines[j]?.text.trim() === '') j++;
      for (; j < section.lines.length; j++) {
        const item = section.lines[j]!.fenced ? null : LIST_ITEM.exec(section.lines[j]!.text);
        if (!item) break;
        files.push(...pathsOf(item[1]!));
      }
      i = j - 1;
      out.files = [...new Set(files)];
    }
  }
  return out;
}

/** The plan's header as context for each task: what precedes the first task, minus the title and trailing headings and rules. */
function headerText(lines: Line[]): string {
  const body = lines.filter((l) => !(l.heading?.level === 1 && !l.fenced));
  while (body.length) {
    const last = body[body.length - 1]!;
    if (last.text.trim() && !last.heading && !/^(?:-{3,}|\*{3,}|_{3,})$/.test(last.text.trim())) break;
    body.pop();
  }
  return body.map((l) => l.text).join('\n').trim();
}

function sections(lines: Line[]): { header: Line[]; tasks: Section[] } {
  const tasks: Section[] = [];
  let header: Line[] = lines;
  let current: Section | undefined;
  lines.forEach((line, i) => {
    const task = line.heading ? TASK_HEADING.exec(line.heading.text) : null;
    if (task) {
      if (tasks.length === 0) header = lines.slice(0, i);
      current = { number: task[1]!.replace(/^0+(?=\d)/, ''), title: (task[2] ?? '').trim(), heading: line, lines: [] };
      tasks.push(current);
      return;
    }
    if (current && line.heading && line.heading.level < current.heading.heading!.level) current = undefined;
    current?.lines.push(line);
  });
  return { header, tasks };
}

function trimmed(lines: Line[]): string {
  const texts = lines.map((l) => l.text);
  while (texts.length && /^\s*(?:-{3,}|\*{3,}|_{3,})?\s*$/.test(texts[texts.length - 1]!)) texts.pop();
  return texts.join('\n');
}

export function readPlanMarkdown(text: string, ctx: PlanReadContext): WorkflowInput {
  const lines = planLines(text);
  const { header, tasks: found } = sections(lines);
  const title = lines.find((l) => l.heading?.level === 1);
  if (title) ctx.locate('/name', title.number);
  const name = title?.heading!.text;
  const baseline = header.find((l) => !l.fenced && /^\*\*Plan Baseline:?\*\*:?/i.test(l.text.trim()));
  const base = baseline ? unquote(baseline.text.trim().replace(/^\*\*Plan Baseline:?\*\*:?/i, '')) : undefined;
  if (baseline) ctx.locate('/base', baseline.number);
  const context = headerText(header);
  if (!found.length) ctx.notice(`${ctx.file}: no "### Task N: title" headings outside code blocks`);
  const tasks: TaskInput[] = found.map((section, index) => {
    ctx.locate(`/tasks/${index}`, section.heading.number);
    ctx.locate(`/tasks/${index}/id`, section.heading.number);
    const { hasBody, ...fields } = taskFields(section, index, ctx);
    const own = trimmed([section.heading, ...section.lines]);
    const task = !hasBody ? '' : context ? `## Context: the plan this task is part of${name ? ` ("${name}")` : ''}\n\n${context}\n\n## Your task\n\n${own}` : own;
    return { id: `task-${section.number}`, title: section.title, task, ...fields };
  });
  return { ...(name ? { name } : {}), ...(base ? { base } : {}), tasks };
}

export default definePlugin({
  kind: 'plan-reader',
  name: 'plan-markdown',
  description: 'Plan markdown as in seed 003: "### Task N: title" sections with **Files:**, **Model:**, **review:**, **Depends on:**',
  extensions: ['.md', '.markdown'],
  // Any file but a YAML or JSON one (whose comments could look like headings) that has a task heading: seed 003 itself is a .txt.
  detect: (file, text) => !/\.(?:ya?ml|json)$/i.test(file) && /^ {0,3}#{2,4}[ \t]+Task[ \t]+\d+\b/im.test(text),
  read: readPlanMarkdown,
});

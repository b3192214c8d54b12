/**
 * The context a plan reader gets: strict YAML, JSON Schema checks and errors that all name the
 * file, the task, the field and the line, the same way for every reader. It also keeps the
 * line of each pointer the reader recorded, for the core's later checks.
 */
import { unescapePointerToken, validateJson } from '../json-schema.ts';
import { suggest } from '../text/suggest.ts';
import { describeKind, parseStrictYaml } from '../yaml/strict-yaml.ts';
import type { PlanProblem, PlanReadContext } from '../plugin-api/contracts.ts';
import { workflowErrors, type WorkflowProblem } from './errors.ts';

export interface ReadContextState {
  ctx: PlanReadContext;
  /** Line of a pointer, or of its nearest recorded ancestor. */
  lineOf(pointer: string): number | undefined;
}

/** The id of the task a pointer is in, read from the plan value. */
export function taskAt(value: unknown, pointer: string): string | undefined {
  const match = /^\/tasks\/(\d+)(?:\/|$)/.exec(pointer);
  if (!match) return undefined;
  const id = (value as { tasks?: { id?: unknown }[] } | null)?.tasks?.[Number(match[1])]?.id;
  return typeof id === 'string' ? id : typeof id === 'number' ? String(id) : undefined;
}

/** The schema node that describes the object at `pointer` (through properties and items), for suggestions. */
function schemaAt(schema: Readonly<Record<string, unknown>>, pointer: string): Record<string, unknown> | undefined {
  let node: Record<string, unknown> | undefined = schema as Record<string, unknown>;
  for (const token of pointer.split('/').slice(1)) {
    if (!node) return undefined;
    const props = node.properties as Record<string, Record<string, unknown>> | undefined;
    node = /^\d+$/.test(token) && node.items ? (node.items as Record<string, unknown>) : props?.[unescapePointerToken(token)];
  }
  return node;
}

export function createReadContext(file: string, notice: (message: string) => void): ReadContextState {
  const lines = new Map<string, number>();
  const lineOf = (pointer: string): number | undefined => {
    for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
      const line = lines.get(p);
      if (line !== undefined || p === '') return line;
    }
  };
  const problem = (p: PlanProblem, code = 'WORKFLOW_INVALID'): WorkflowProblem => {
    const pointer = p.pointer ?? '';
    return { code, pointer, message: p.message, ...(p.task !== undefined ? { task: p.task } : {}), ...withLine(p.line ?? lineOf(pointer)), ...(p.hint ? { hint: p.hint } : {}) };
  };
  const ctx: PlanReadContext = {
    file,
    notice,
    locate(pointer, line) {
      if (typeof pointer === 'string' && Number.isInteger(line) && line > 0) lines.set(pointer, line);
    },
    parseYaml(text) {
      const parsed = parseStrictYaml(text, { lines: true });
      if (!parsed.ok) {
        const { reason, where, snippet } = parsed.problem;
        throw workflowErrors.invalid(file, [{ code: 'WORKFLOW_YAML', pointer: '', message: `invalid YAML${where ? ` (column ${where.column})` : ''}: ${reason}${snippet ? `\n${snippet}` : ''}`, ...withLine(where?.line) }]);
      }
      if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
        throw workflowErrors.invalid(file, [{ code: 'WORKFLOW_YAML', pointer: '', message: `the file must hold a YAML mapping (name:, tasks:, ...), but its top level is ${describeKind(parsed.value)}` }]);
      }
      return { value: parsed.value as Record<string, unknown>, lines: parsed.lines };
    },
    validate(schema, value) {
      const outcome = validateJson(schema as Record<string, unknown>, value);
      if (outcome.valid) return;
      // A value of the wrong type fails its other keywords too; the type is the one to report.
      const wrongType = new Set(outcome.violations.filter((v) => v.keyword === 'type').map((v) => v.pointer));
      const problems = outcome.violations.filter((v) => v.keyword === 'type' || !wrongType.has(v.pointer)).map((v) => {
        let message = v.message;
        if (v.keyword === 'additionalProperties') {
          const field = unescapePointerToken(v.pointer.slice(v.pointer.lastIndexOf('/') + 1));
          const parent = schemaAt(schema, v.pointer.slice(0, v.pointer.lastIndexOf('/')));
          message += suggest(field, Object.keys((parent?.properties as object | undefined) ?? {}));
        }
        return problem({ pointer: v.pointer, message, task: taskAt(value, v.pointer) });
      });
      throw workflowErrors.invalid(file, problems);
    },
    error: (p) => workflowErrors.invalid(file, [problem(p)]),
  };
  return { ctx, lineOf };
}

function withLine(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

/**
 * Strict YAML for files people write (roles, workflows): syntax errors, duplicate keys, unknown
 * tags and several documents all fail with the line and column where the parser knows them.
 * Aliases are capped so an alias bomb ("billion laughs") fails fast instead of eating memory.
 * Callers turn a problem into their own error (ROLE_YAML, WORKFLOW_YAML).
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLError, type YAMLWarning } from 'yaml';
import { escapePointerToken } from '../json-schema.ts';

/** Alias expansions allowed per file: plenty for sharing a list, far too few for a bomb. */
export const MAX_YAML_ALIASES = 100;

export interface YamlProblem {
  reason: string;
  where?: { line: number; column: number };
  /** The offending lines, indented, as the parser shows them. */
  snippet?: string;
}

export type StrictYaml =
  | { ok: true; value: unknown; /** 1-based line of each node by JSON pointer (with `lines: true`). */ lines: Map<string, number> }
  | { ok: false; problem: YamlProblem };

/** "Missing closing quote at line 3, column 1:\n\n<snippet>" → reason and snippet. */
function splitMessage(problem: YAMLError | YAMLWarning): YamlProblem {
  const [head = problem.message, ...rest] = problem.message.split('\n');
  const reason = head.replace(/ at line \d+, column \d+:?$/, '');
  const snippet = rest.filter((line) => line.trim() !== '').map((line) => `  ${line}`).join('\n');
  const pos = problem.linePos?.[0];
  return { reason, snippet: snippet || undefined, where: pos ? { line: pos.line, column: pos.col } : undefined };
}

function aliasReason(message: string): string {
  if (/Excessive alias count/.test(message)) return `too many alias expansions (more than ${MAX_YAML_ALIASES}); this looks like an alias bomb`;
  if (/Unresolved alias/.test(message)) return `${message.replace(/ \(the anchor must be set before the alias\)/, '')} (an *alias must follow its &anchor)`;
  return message;
}

/** Records the line of every mapping value and list item under `pointer`. */
function recordLines(node: unknown, pointer: string, counter: LineCounter, lines: Map<string, number>): void {
  const at = (n: unknown) => (n as Node | null)?.range?.[0];
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const child = `${pointer}/${escapePointerToken(key)}`;
      const offset = at(pair.key) ?? at(pair.value);
      if (offset !== undefined) lines.set(child, counter.linePos(offset).line);
      recordLines(pair.value, child, counter, lines);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      const child = `${pointer}/${index}`;
      const offset = at(item);
      if (offset !== undefined) lines.set(child, counter.linePos(offset).line);
      recordLines(item, child, counter, lines);
    });
  }
}

/** Parses one YAML document strictly; values are copied, so aliases never share objects. */
export function parseStrictYaml(text: string, options: { lines?: boolean } = {}): StrictYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, merge: true, lineCounter });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) return { ok: false, problem: splitMessage(problem) };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    return { ok: false, problem: { reason: aliasReason(error instanceof Error ? error.message : String(error)) } };
  }
  const lines = new Map<string, number>();
  if (options.lines) recordLines(doc.contents, '', lineCounter, lines);
  return { ok: true, value: value === undefined || value === null ? value : structuredClone(value), lines };
}

export function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'empty (null)';
  if (typeof value === 'string') return 'a string';
  return `a ${typeof value}`;
}

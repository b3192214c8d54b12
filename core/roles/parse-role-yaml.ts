/**
 * Role YAML → a plain mapping, strictly: syntax errors, duplicate keys, unknown tags, several
 * documents, an empty file or a top level that is not a mapping all fail, naming the file and,
 * where the parser knows it, the line and column. Aliases are capped so an alias bomb
 * ("billion laughs") fails fast instead of eating memory.
 */
import { parseDocument, type YAMLError, type YAMLWarning } from 'yaml';
import { roleErrors } from './errors.ts';

/** Alias expansions allowed per file: plenty for sharing a list, far too few for a bomb. */
export const MAX_YAML_ALIASES = 100;

function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'empty (null)';
  if (typeof value === 'string') return 'a string';
  return `a ${typeof value}`;
}

/** "Missing closing quote at line 3, column 1:\n\n<snippet>" → reason and snippet. */
function splitMessage(problem: YAMLError | YAMLWarning): { reason: string; snippet?: string } {
  const [head = problem.message, ...rest] = problem.message.split('\n');
  const reason = head.replace(/ at line \d+, column \d+:?$/, '');
  const snippet = rest.filter((line) => line.trim() !== '').map((line) => `  ${line}`).join('\n');
  return { reason, snippet: snippet || undefined };
}

function yamlError(file: string, problem: YAMLError | YAMLWarning): Error {
  const { reason, snippet } = splitMessage(problem);
  const pos = problem.linePos?.[0];
  return roleErrors.yaml(file, reason, pos ? { line: pos.line, column: pos.col } : undefined, snippet);
}

/** Parses one role file's text; `file` is only used in messages. */
export function parseRoleYaml(text: string, file: string): Record<string, unknown> {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, merge: true });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) throw yamlError(file, problem);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const reason = /Excessive alias count/.test(message)
      ? `too many alias expansions (more than ${MAX_YAML_ALIASES}); this looks like an alias bomb`
      : /Unresolved alias/.test(message)
        ? `${message.replace(/ \(the anchor must be set before the alias\)/, '')} (an *alias must follow its &anchor)`
        : message;
    throw roleErrors.yaml(file, reason);
  }
  if (value === null || value === undefined) throw roleErrors.empty(file);
  if (typeof value !== 'object' || Array.isArray(value)) throw roleErrors.notMapping(file, describeKind(value));
  // Aliases share objects; a role's values are copied so merging never edits another field.
  return structuredClone(value) as Record<string, unknown>;
}

export { describeKind };

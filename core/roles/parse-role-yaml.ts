/**
 * Role YAML → a plain mapping, strictly (core/yaml/strict-yaml.ts): syntax errors, duplicate
 * keys, unknown tags, several documents, alias bombs, an empty file or a top level that is not
 * a mapping all fail, naming the file and, where the parser knows it, the line and column.
 */
import { describeKind, parseStrictYaml } from '../yaml/strict-yaml.ts';
import { roleErrors } from './errors.ts';

export { MAX_YAML_ALIASES } from '../yaml/strict-yaml.ts';

/** Texts parsed before, newest last: a workflow loads the same few roles for every run. */
const parsedTexts = new Map<string, Record<string, unknown>>();
const PARSED_KEPT = 32;

/** Parses one role file's text (a copy of what the same text parsed to before); `file` is only used in messages. */
export function parseRoleYaml(text: string, file: string): Record<string, unknown> {
  const known = parsedTexts.get(text);
  if (known) return structuredClone(known);
  const value = parseRoleText(text, file);
  parsedTexts.set(text, structuredClone(value));
  if (parsedTexts.size > PARSED_KEPT) parsedTexts.delete(parsedTexts.keys().next().value!);
  return value;
}

function parseRoleText(text: string, file: string): Record<string, unknown> {
  const parsed = parseStrictYaml(text);
  if (!parsed.ok) throw roleErrors.yaml(file, parsed.problem.reason, parsed.problem.where, parsed.problem.snippet);
  const value = parsed.value;
  if (value === null || value === undefined) throw roleErrors.empty(file);
  if (typeof value !== 'object' || Array.isArray(value)) throw roleErrors.notMapping(file, describeKind(value));
  return value as Record<string, unknown>;
}

export { describeKind };

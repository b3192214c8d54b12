/**
 * Role YAML → a plain mapping, strictly (core/yaml/strict-yaml.ts): syntax errors, duplicate
 * keys, unknown tags, several documents, alias bombs, an empty file or a top level that is not
 * a mapping all fail, naming the file and, where the parser knows it, the line and column.
 */
import { readAsset } from '../assets.ts';
import { describeKind, parseStrictYaml } from '../yaml/strict-yaml.ts';
import { roleErrors } from './errors.ts';

export { MAX_YAML_ALIASES } from '../yaml/strict-yaml.ts';

/** Texts parsed before, newest last: a workflow loads the same few roles for every run. */
const parsedTexts = new Map<string, Record<string, unknown>>();
const PARSED_KEPT = 32;

/**
 * What the built-in role files parse to, text → value, made by the build with this module
 * (scripts/pkg/parsed-roles.mjs): inside the binary a run's role is not parsed again (its first
 * YAML parse, of code not run yet, took ~5 ms of a 120 ms run). A text is its own key, so a copy
 * of a built-in file anywhere parses the same; from source there is none.
 */
export const PARSED_ROLES_ASSET = 'parsed/roles.json';
const builtinParsed = new Map<string, Record<string, unknown>>();
let builtinRead = false;

/** Adds texts and what they parse to (the build's, or a test's). */
export function knowParsedRoles(parsed: Record<string, Record<string, unknown>>): void {
  for (const [text, value] of Object.entries(parsed)) builtinParsed.set(text, value);
}

function parsedByBuild(text: string): Record<string, unknown> | undefined {
  if (!builtinRead) {
    builtinRead = true;
    const asset = readAsset(PARSED_ROLES_ASSET);
    if (asset) knowParsedRoles(JSON.parse(asset.content) as Record<string, Record<string, unknown>>);
  }
  return builtinParsed.get(text);
}

/** Parses one role file's text (a copy of what the same text parsed to before); `file` is only used in messages. */
export function parseRoleYaml(text: string, file: string): Record<string, unknown> {
  const known = parsedTexts.get(text) ?? parsedByBuild(text);
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

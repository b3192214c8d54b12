/**
 * What a merged role names beyond its own file: an `output_schema` name must be a built-in
 * schema (always checked). With checkReferences (the `roles` commands, which promise every
 * problem before a run meets it), an `output_schema` path must also load as a JSON Schema and
 * `template` must be a built-in prompts/<name>.eta or the repository's .supervisor/prompts/<name>.eta.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listAssets } from '../assets.ts';
import { isSupervisorError } from '../errors.ts';
import { listOutputSchemas, loadOutputSchema } from '../output/schemas.ts';
import type { RoleViolation } from './errors.ts';
import { sourceOf, type MergedRole } from './merge.ts';
import { isSchemaPath } from './pre-merge.ts';
import { suggest } from '../text/suggest.ts';

const TEMPLATE_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]*$/;
const ETA = '.eta';

// Built-in assets do not change while the process runs: list them once, not per role load.
let builtinSchemas: string[] | undefined;
let builtinTemplates: string[] | undefined;

function builtinSchemaNames(): string[] {
  return (builtinSchemas ??= listOutputSchemas());
}

function builtinTemplateNames(): string[] {
  builtinTemplates ??= listAssets('prompts')
    .filter((asset) => asset.endsWith(ETA))
    .map((asset) => asset.slice('prompts/'.length, -ETA.length));
  return builtinTemplates;
}

function projectPrompts(repoRoot: string): string {
  return join(repoRoot, '.supervisor', 'prompts');
}

function projectTemplateNames(repoRoot: string): string[] {
  try {
    return readdirSync(projectPrompts(repoRoot)).filter((f) => f.endsWith(ETA)).map((f) => f.slice(0, -ETA.length));
  } catch {
    return [];
  }
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function outputSchemaProblem(schema: string, checkFile: boolean): string | undefined {
  if (isSchemaPath(schema)) {
    // Pre-merge resolved the path (so baseDir is unused) and checked that it exists.
    if (!checkFile) return undefined;
    try {
      loadOutputSchema(schema, { baseDir: dirname(schema) });
      return undefined;
    } catch (error) {
      if (!isSupervisorError(error)) throw error;
      return `does not load as a JSON Schema: ${error.message}`;
    }
  }
  const known = builtinSchemaNames();
  if (!known.length || known.includes(schema)) return undefined;
  return `"${schema}" is not a built-in output schema (built-in: ${known.join(', ')}); to use your own, give the path of a .json file${suggest(schema, known)}`;
}

function templateProblem(template: string, repoRoot: string): string | undefined {
  const builtin = builtinTemplateNames();
  if (builtin.includes(template) || isFile(join(projectPrompts(repoRoot), `${template}${ETA}`))) return undefined;
  const known = [...new Set([...builtin, ...projectTemplateNames(repoRoot)])].sort();
  return `no template named "${template}": not a built-in one (${builtin.join(', ')}) nor ${join(projectPrompts(repoRoot), `${template}${ETA}`)}${suggest(template, known)}`;
}

/** Problems with the output schema and template a merged role names, attributed to files. */
export function referenceViolations(merged: MergedRole, leafPath: string, opts: { repoRoot: string; checkReferences?: boolean }): RoleViolation[] {
  const violations: RoleViolation[] = [];
  const add = (field: string, message: string | undefined) => {
    if (message !== undefined) violations.push({ pointer: `/${field}`, keyword: field, message, file: sourceOf(merged, `/${field}`, leafPath) });
  };
  const { output_schema: schema, template } = merged.config;
  if (typeof schema === 'string' && schema !== '') add('output_schema', outputSchemaProblem(schema, opts.checkReferences === true));
  if (!opts.checkReferences) return violations;
  // A template name that breaks the schema's pattern is already reported by the schema check.
  if (typeof template === 'string' && TEMPLATE_NAME.test(template)) add('template', templateProblem(template, opts.repoRoot));
  return violations;
}

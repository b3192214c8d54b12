/**
 * Which templates may render: the built-ins in prompts/ (read through core/assets so they work
 * inside the binary) and the project's own <repo>/.supervisor/prompts/<name>.eta files, which
 * are trusted like plugins and win over a built-in of the same name. Nothing else renders:
 * templates are code, so a name is never a path.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listAssets, readAsset } from '../assets.ts';
import { untrustedNotice } from '../trust/decide.ts';
import { promptErrors } from './errors.ts';

export interface TemplateSource {
  /** Plain name, without extension: "planning". */
  name: string;
  content: string;
  /** What to show users as the file. */
  file: string;
  origin: 'builtin' | 'project';
}

/** The allowlist: name → source. */
export type TemplateSet = ReadonlyMap<string, TemplateSource>;

const TEMPLATE_EXTENSION = '.eta';
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

/** Where a project keeps its templates. */
function projectPromptsDir(repoRoot: string): string {
  return join(repoRoot, '.supervisor', 'prompts');
}

/** "planning.eta" → "planning"; anything path-like is refused before any lookup. */
export function normaliseTemplateName(raw: string, known: readonly string[]): string {
  if (/[\\/]|\.\./.test(raw) || raw.includes('\0')) throw promptErrors.templateNotAllowed(raw, [...known], 'path');
  const name = raw.endsWith(TEMPLATE_EXTENSION) ? raw.slice(0, -TEMPLATE_EXTENSION.length) : raw;
  if (!NAME.test(name)) throw promptErrors.templateNotAllowed(raw, [...known], 'unknown');
  return name;
}

/** Looks a name up in the allowlist; unknown and path-like names are TEMPLATE_NOT_ALLOWED. */
export function getTemplate(set: TemplateSet, raw: string): TemplateSource {
  const known = [...set.keys()].sort();
  const found = set.get(normaliseTemplateName(raw, known));
  if (!found) throw promptErrors.templateNotAllowed(raw, known, 'unknown');
  return found;
}

/** The built-ins, read once per process: they cannot change under a running binary or source tree. */
let builtins: readonly TemplateSource[] | undefined;

/** The built-in templates, from prompts/*.eta. */
function builtinTemplates(): readonly TemplateSource[] {
  builtins ??= listAssets('prompts')
    .filter((asset) => asset.endsWith(TEMPLATE_EXTENSION))
    .flatMap((asset) => {
      const found = readAsset(asset);
      const name = asset.slice('prompts/'.length, -TEMPLATE_EXTENSION.length);
      return found && NAME.test(name) ? [Object.freeze({ name, content: found.content, file: found.displayPath, origin: 'builtin' as const })] : [];
    });
  return builtins;
}

/** The project's templates; a missing folder is simply none. Files with odd names are skipped. */
async function projectTemplates(repoRoot: string): Promise<TemplateSource[]> {
  const dir = projectPromptsDir(repoRoot);
  let entries: string[];
  try {
    entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() || e.isSymbolicLink()).map((e) => e.name);
  } catch {
    return [];
  }
  const out: TemplateSource[] = [];
  for (const entry of entries.sort()) {
    if (!entry.endsWith(TEMPLATE_EXTENSION)) continue;
    const name = entry.slice(0, -TEMPLATE_EXTENSION.length);
    if (!NAME.test(name)) continue;
    const file = join(dir, entry);
    out.push({ name, content: await readFile(file, 'utf8'), file, origin: 'project' });
  }
  return out;
}

/**
 * Built-ins (cached), then the project's, read each time (a project file replaces the built-in
 * of the same name). Templates are code (Eta compiles them to JavaScript), so the project's load
 * only when the repository is trusted (core/trust); otherwise a notice names what was left out.
 */
export async function loadTemplateSet(repoRoot: string | undefined, trust: { trusted: boolean; notice?: (message: string) => void } = { trusted: false }): Promise<TemplateSet> {
  const set = new Map<string, TemplateSource>();
  for (const source of builtinTemplates()) set.set(source.name, source);
  if (!repoRoot) return set;
  const project = await projectTemplates(repoRoot);
  if (trust.trusted) for (const source of project) set.set(source.name, source);
  else if (project.length) trust.notice?.(untrustedNotice(`templates ${project.map((t) => `${t.name}.eta`).join(', ')} in ${projectPromptsDir(repoRoot)}`, repoRoot));
  return set;
}

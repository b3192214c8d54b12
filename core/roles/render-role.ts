/** Human-readable text for `supervisor roles show`: the merged role as YAML, each field with its files. */
import { isAbsolute, relative } from 'node:path';
import { stringify } from 'yaml';
import type { LoadedRole } from './load-role.ts';
import type { Role } from './role.ts';

/** The order fields are shown in: the order a role file is usually written in. */
const FIELD_ORDER = ['name', 'description', 'extends', 'cli', 'flags', 'system_prompt', 'context', 'gates', 'setup', 'config', 'output_schema', 'instructions', 'sandbox', 'parser', 'template'];

/** A path as short as it can be while staying unambiguous: relative to `cwd` when inside it. */
export function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** The merged role's fields in file order, as written in YAML (without the loader's bookkeeping). */
function roleFields(role: Role): [string, unknown][] {
  const config: Record<string, unknown> = { ...role, ...role.extensions };
  const xKeys = Object.keys(role.extensions).sort();
  return [...FIELD_ORDER, ...xKeys]
    .filter((key) => key in role.sources || key === 'extends' && role.extends !== null)
    .map((key) => [key, config[key]]);
}

export function renderRole(loaded: LoadedRole, cwd: string): string {
  const { role, merged, chain } = loaded;
  const show = (p: string) => displayPath(p, cwd);
  const lines = [
    `# role ${role.name}: ${role.description}`,
    `# file: ${show(role.file)}`,
    `# chain: ${chain.map((f) => f.name).join(' -> ')}${role.base_role ? ` (base role: ${role.base_role})` : ' (a base role)'}`,
    '',
  ];
  for (const [key, value] of roleFields(role)) {
    const files = merged.contributors[key] ?? [role.sources[key] ?? role.file];
    lines.push(`# ${key}: from ${files.map(show).join(' + ')}`);
    lines.push(stringify({ [key]: value }, { lineWidth: 0 }).trimEnd());
  }
  return lines.join('\n');
}

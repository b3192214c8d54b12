// What each built-in role file (roles/*.yaml) parses to, text → value, for the binary's assets
// (parsed/roles.json): a run of the binary does not parse a built-in role's YAML again. Made by
// the project's own parser (core/roles/parse-role-yaml.ts, through tsx), so the two cannot
// differ; a value that JSON cannot carry as it is (.inf, .nan) is left to the parser at run time.
import { isDeepStrictEqual } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

/** The asset's name and JSON text, and which files it holds. */
export async function parsedRoles(root) {
  const { parseRoleYaml, PARSED_ROLES_ASSET } = await tsImport(pathToFileURL(join(root, 'core', 'roles', 'parse-role-yaml.ts')).href, import.meta.url);
  const parsed = {};
  const files = [];
  for (const name of readdirSync(join(root, 'roles')).filter((f) => /\.ya?ml$/.test(f)).sort()) {
    const text = readFileSync(join(root, 'roles', name), 'utf8');
    const value = parseRoleYaml(text, `<builtin>/roles/${name}`);
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(value)), value)) continue;
    parsed[text] = value;
    files.push(name);
  }
  return { asset: PARSED_ROLES_ASSET, json: JSON.stringify(parsed), files };
}

/**
 * RoleLoader: role name or file → YAML → pre-merge checks → extends chain → merge → JSON Schema
 * → Role. Search order, highest precedence first: <repo>/.supervisor/roles, ~/.supervisor/roles,
 * the built-in roles/. A role that extends its own name extends the role of that name in a
 * lower-precedence folder, so a repository can refine a built-in role under the same name.
 */
import { resolve } from 'node:path';
import { isSupervisorError, SupervisorError } from '../errors.ts';
import { roleErrors } from './errors.ts';
import { mergeChain, type MergedRole } from './merge.ts';
import { parseRoleYaml } from './parse-role-yaml.ts';
import { checkPreMergeTypes, resolveRolePaths, ROLE_NAME_PATTERN } from './pre-merge.ts';
import { findInLayer, findRoleFile, layersForFile, listLayer, readRoleText, searchLayers, type RoleFile, type SearchLayer } from './role-files.ts';
import type { Role } from './role.ts';
import { roleViolations, type RoleCheckOptions } from './validate-role.ts';

/** How many roles an extends chain may hold (the role itself included). */
export const MAX_EXTENDS_DEPTH = 10;

export interface RoleLoadOptions extends RoleCheckOptions {
  homeDir: string;
  /** Search only the user's folder and the built-ins (the role as the user's own files define it). */
  withoutRepo?: boolean;
}

/** One role as `roles list` shows it. */
export interface RoleSummary {
  name: string;
  /** The file that defines it (the highest-precedence one). */
  file: string;
  layer: 'repo' | 'user' | 'builtin';
  extends: string | null;
  base_role: string | null;
  cli: string | null;
  description: string | null;
  /** Lower-precedence files of the same name that this one hides. */
  shadows: string[];
  /** Why it does not load, or null when it is valid. */
  error: { code: string; message: string } | null;
}

/** A loaded role with everything `roles show` needs to explain where each part came from. */
export interface LoadedRole {
  role: Role;
  merged: MergedRole;
  /** The chain, leaf first. */
  chain: RoleFile[];
}

interface ChainLink {
  file: RoleFile;
  raw: Record<string, unknown>;
}

/**
 * Role files already read, parsed and checked, by path: shared by the loads of one listing
 * (`roles list`, `roles validate`), where every overlay would otherwise re-read its parents.
 * Keep one for a single call only: files may change between calls.
 */
export type RoleFileCache = Map<string, Promise<ChainLink>>;

async function parseLink(file: RoleFile, opts: RoleLoadOptions): Promise<ChainLink> {
  const raw = parseRoleYaml(await readRoleText(file), file.path);
  checkPreMergeTypes(raw, file.path);
  return { file, raw: resolveRolePaths(raw, file, opts.repoRoot) };
}

/** Parsed links are only read by the merge (which copies what it changes), so sharing them is safe. */
function readLink(file: RoleFile, opts: RoleLoadOptions, cache?: RoleFileCache): Promise<ChainLink> {
  const cached = cache?.get(file.path);
  if (cached) return cached.then((link) => ({ ...link, file }));
  const link = parseLink(file, opts);
  cache?.set(file.path, link);
  return link;
}

async function knownNames(layers: SearchLayer[]): Promise<string[]> {
  const all = await Promise.all(layers.map((_, i) => listLayer(layers, i)));
  return [...new Set(all.flat().map((f) => f.name))].sort();
}

/** A parent's error, saying which role asked for that parent: the file a user started from is often not the broken one. */
function reachedThrough(error: unknown, chain: ChainLink[], parent: RoleFile): unknown {
  if (!isSupervisorError(error) || chain.length === 0) return error;
  const route = [...chain.map((l) => l.file.name), parent.name].join(' -> ');
  const start = chain[0]!.file.path;
  return new SupervisorError(error.code, `${error.message}\n  (parent of ${start}: ${route})`, {
    hint: error.hint,
    details: { ...error.details, requestedBy: start, chain: route },
    cause: error.cause,
    exitCode: error.exitCode,
  });
}

/** Reads the chain from the leaf up to its root, detecting cycles and over-deep chains. */
async function readChain(start: RoleFile, layers: SearchLayer[], opts: RoleLoadOptions, cache?: RoleFileCache): Promise<ChainLink[]> {
  const chain: ChainLink[] = [];
  let current: RoleFile = start;
  for (;;) {
    const seen = chain.findIndex((link) => link.file.path === current.path);
    if (seen >= 0) throw roleErrors.cycle([...chain.slice(seen).map((l) => l.file.name), current.name], current.path);
    if (chain.length >= MAX_EXTENDS_DEPTH) throw roleErrors.tooDeep(chain.map((l) => l.file.name), start.path, MAX_EXTENDS_DEPTH);
    const link = await readLink(current, opts, cache).catch((error: unknown) => {
      throw reachedThrough(error, chain, current);
    });
    chain.push(link);
    const parent = link.raw.extends;
    if (typeof parent !== 'string') return chain;
    const selfExtension = parent === current.name;
    const found = await findRoleFile(layers, parent, selfExtension ? current.layer + 1 : 0);
    if (!found) {
      if (selfExtension) throw roleErrors.cycle([current.name, parent], current.path, true);
      throw roleErrors.parentMissing(current.path, parent, layers.map((l) => l.label), await knownNames(layers));
    }
    current = found;
  }
}

function toRole(merged: MergedRole, chain: ChainLink[]): Role {
  const c = merged.config;
  const leaf = chain[0]!.file;
  const extensions = Object.fromEntries(Object.entries(c).filter(([key]) => key.startsWith('x-')));
  return {
    name: c.name as string,
    description: c.description as string,
    cli: c.cli as string,
    flags: (c.flags as string[] | undefined) ?? [],
    system_prompt: c.system_prompt as string,
    context: (c.context as Role['context'] | undefined) ?? {},
    gates: (c.gates as string[] | undefined) ?? [],
    ...(Array.isArray(c.setup) && c.setup.length ? { setup: c.setup as string[] } : {}),
    config: (c.config as Role['config'] | undefined) ?? {},
    extends: (c.extends as string | undefined) ?? null,
    base_role: chain.length > 1 ? chain[chain.length - 1]!.file.name : null,
    output_schema: (c.output_schema as string | undefined) ?? null,
    instructions: (c.instructions as string[] | undefined) ?? [],
    sandbox: (c.sandbox as Role['sandbox'] | undefined) ?? null,
    parser: (c.parser as string | undefined) ?? null,
    template: (c.template as string | undefined) ?? null,
    extensions,
    file: leaf.path,
    sources: merged.sources,
  };
}

/** A role is named after its file: a file that gives no name gets that one, never its parent's. */
function nameAfterFile(merged: MergedRole, file: RoleFile): void {
  merged.config.name = file.name;
  merged.sources.name = file.path;
  merged.contributors.name = [file.path];
  merged.pointerSources.set('/name', file.path);
}

async function loadFrom(start: RoleFile, layers: SearchLayer[], opts: RoleLoadOptions, cache?: RoleFileCache): Promise<LoadedRole> {
  const chain = await readChain(start, layers, opts, cache);
  const merged = mergeChain([...chain].reverse().map((link) => ({ file: link.file.path, raw: link.raw })));
  if (!('name' in chain[0]!.raw)) nameAfterFile(merged, start);
  const violations = roleViolations(merged, start, opts);
  if (violations.length) throw roleErrors.invalid(start.name, start.path, violations);
  return { role: toRole(merged, chain), merged, chain: chain.map((l) => l.file) };
}

async function findByName(name: string, opts: RoleLoadOptions): Promise<{ file: RoleFile; layers: SearchLayer[] }> {
  if (!ROLE_NAME_PATTERN.test(name)) throw roleErrors.badName(name);
  const layers = searchLayers(opts);
  const file = await findRoleFile(layers, name);
  if (!file) throw roleErrors.notFound(name, layers.map((l) => l.label), await knownNames(layers));
  return { file, layers };
}

/** Loads, merges and validates the role called `name`; throws a ROLE_* SupervisorError. */
export async function loadRole(name: string, opts: RoleLoadOptions): Promise<Role> {
  return (await loadRoleDetailed(name, opts)).role;
}

/** loadRole, plus the merge bookkeeping (which file gave what) and the chain. */
export async function loadRoleDetailed(name: string, opts: RoleLoadOptions): Promise<LoadedRole> {
  const { file, layers } = await findByName(name, opts);
  return loadFrom(file, layers, opts);
}

/**
 * Loads one role file by path. Its parents are looked up beside it first, then in the usual
 * folders. `<builtin>/roles/x.yaml` names a built-in role file.
 */
export async function loadRoleFile(file: string, opts: RoleLoadOptions): Promise<Role> {
  return (await loadRoleFileDetailed(file, opts)).role;
}

export async function loadRoleFileDetailed(file: string, opts: RoleLoadOptions): Promise<LoadedRole> {
  const path = file.startsWith('<builtin>/') ? file : resolve(file);
  const { layers, file: start } = layersForFile(path, searchLayers(opts));
  return loadFrom(start, layers, opts);
}

/** Every role file of every folder (hidden ones too), in search order: what `roles validate` checks. */
export async function listRoleFiles(opts: Pick<RoleLoadOptions, 'repoRoot' | 'homeDir'>): Promise<RoleFile[]> {
  const layers = searchLayers(opts);
  return (await Promise.all(layers.map((_, i) => listLayer(layers, i)))).flat();
}

/** Loads one listed role file (as found by listRoleFiles); loads of one listing may share a cache. */
export async function loadListedRoleFile(file: RoleFile, opts: RoleLoadOptions, cache?: RoleFileCache): Promise<LoadedRole> {
  const layers = searchLayers(opts);
  await findInLayer(layers, file.layer, file.name); // throws ROLE_AMBIGUOUS when x.yaml and x.yml both exist
  return loadFrom(file, layers, opts, cache);
}

/** The roles a name resolves to, one per name, with why a role fails to load when it does. */
export async function listRoles(opts: RoleLoadOptions): Promise<RoleSummary[]> {
  const files = await listRoleFiles(opts);
  const byName = new Map<string, RoleFile[]>();
  for (const file of files) byName.set(file.name, [...(byName.get(file.name) ?? []), file]);
  const summaries: RoleSummary[] = [];
  const cache: RoleFileCache = new Map();
  for (const [name, [top, ...hidden]] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    const summary: RoleSummary = {
      name,
      file: top!.path,
      layer: top!.layerName as RoleSummary['layer'],
      extends: null,
      base_role: null,
      cli: null,
      description: null,
      shadows: hidden.map((f) => f.path),
      error: null,
    };
    try {
      const { role } = await loadListedRoleFile(top!, opts, cache);
      Object.assign(summary, { extends: role.extends, base_role: role.base_role, cli: role.cli, description: role.description });
    } catch (error) {
      const e = error as { code?: string; message?: string };
      summary.error = { code: e.code ?? 'INTERNAL', message: e.message ?? String(error) };
    }
    summaries.push(summary);
  }
  return summaries;
}

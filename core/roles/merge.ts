/**
 * The extends merge, root first, each child over its parent (seed 000's rules):
 * - scalars (cli, description, parser, x-model, ...): the child replaces the parent's value;
 * - mappings (context, config, x- mappings): merged key by key, recursively;
 * - lists (flags, gates, instructions, context.include, ...): the child's items are appended
 *   to the parent's; repeated strings are dropped, except in `flags`, whose items come in
 *   pairs ("--model", "x") and must stay as written;
 * - `system_prompt_additions` is appended to the system prompt the role has so far (the
 *   parent's, or the child's own `system_prompt` when it gives one), after a blank line;
 * - `extends` is not inherited: the merged role keeps its own.
 * Every value set records the file it came from, so errors can name the right file.
 */
import { escapePointerToken } from '../json-schema.ts';

type Mapping = Record<string, unknown>;

export interface MergeLayer {
  /** The file shown to users. */
  file: string;
  raw: Mapping;
}

export interface MergedRole {
  config: Mapping;
  /** Which file gave each top-level field (the last one that set or changed it). */
  sources: Record<string, string>;
  /** Every file that contributed to each top-level field, root first. */
  contributors: Record<string, string[]>;
  /** JSON pointer → the file that set the value there; look up with sourceOf(). */
  pointerSources: Map<string, string>;
  /** The file whose system_prompt_additions had no system prompt to add to, if any. */
  orphanAdditions: string | null;
}

const isMapping = (v: unknown): v is Mapping => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Whether a child value merges with the parent's (mapping into mapping, list onto list) rather than replacing it. */
const combines = (parent: unknown, child: unknown) => (isMapping(parent) && isMapping(child)) || (Array.isArray(parent) && Array.isArray(child));

/** Sets an own property even for a key like "__proto__", so YAML keys never change prototypes. */
function setOwn(target: Mapping, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function forget(pointers: Map<string, string>, prefix: string): void {
  for (const key of pointers.keys()) if (key.startsWith(`${prefix}/`)) pointers.delete(key);
}

function mergeList(current: unknown[], items: unknown[], pointer: string, file: string, dedupe: boolean, pointers: Map<string, string>): unknown[] {
  const out = [...current];
  for (const item of items) {
    if (dedupe && typeof item === 'string' && out.includes(item)) continue;
    pointers.set(`${pointer}/${out.length}`, file);
    out.push(item);
  }
  return out;
}

function mergeInto(target: Mapping, patch: Mapping, pointer: string, file: string, pointers: Map<string, string>): void {
  for (const [key, value] of Object.entries(patch)) {
    const at = `${pointer}/${escapePointerToken(key)}`;
    const current = target[key];
    if (isMapping(current) && isMapping(value)) {
      const copy = { ...current };
      mergeInto(copy, value, at, file, pointers);
      setOwn(target, key, copy);
    } else if (Array.isArray(current) && Array.isArray(value)) {
      setOwn(target, key, mergeList(current, value, at, file, at !== '/flags', pointers));
    } else {
      forget(pointers, at);
      pointers.set(at, file);
      setOwn(target, key, value);
      if (isMapping(value)) recordLeaves(value, at, file, pointers);
    }
  }
}

/** A mapping set whole: each of its keys came from the same file. */
function recordLeaves(value: Mapping, pointer: string, file: string, pointers: Map<string, string>): void {
  for (const [key, sub] of Object.entries(value)) {
    const at = `${pointer}/${escapePointerToken(key)}`;
    pointers.set(at, file);
    if (isMapping(sub)) recordLeaves(sub, at, file, pointers);
  }
}

function appendPrompt(prompt: string, additions: string): string {
  return `${prompt.trimEnd()}\n\n${additions.trim()}\n`;
}

/** Merges a chain given root first. Raw mappings have passed the pre-merge checks. */
export function mergeChain(chain: MergeLayer[]): MergedRole {
  const config: Mapping = {};
  // Maps, not objects: a YAML key such as "__proto__" must be an ordinary key here too.
  const sources = new Map<string, string>();
  const contributors = new Map<string, string[]>();
  const pointerSources = new Map<string, string>();
  let orphanAdditions: string | null = null;
  const touch = (key: string, file: string, merging: boolean) => {
    sources.set(key, file);
    contributors.set(key, merging ? [...(contributors.get(key) ?? []), file] : [file]);
  };
  for (const { file, raw } of chain) {
    const { extends: parent, system_prompt_additions: additions, ...rest } = raw;
    delete config.extends;
    const merging = Object.keys(rest).map((key) => [key, combines(config[key], rest[key])] as const);
    mergeInto(config, rest, '', file, pointerSources);
    for (const [key, merged] of merging) touch(key, file, merged);
    if (typeof parent === 'string') {
      config.extends = parent;
      pointerSources.set('/extends', file);
      touch('extends', file, false);
    }
    if (typeof additions === 'string') {
      if (typeof config.system_prompt === 'string') {
        config.system_prompt = appendPrompt(config.system_prompt, additions);
        pointerSources.set('/system_prompt', file);
        if (!('system_prompt' in rest)) touch('system_prompt', file, true);
      } else {
        orphanAdditions = file;
      }
    }
  }
  return { config, sources: Object.fromEntries(sources), contributors: Object.fromEntries(contributors), pointerSources, orphanAdditions };
}

/** The file that gave the value at a JSON pointer: the nearest recorded pointer above it. */
export function sourceOf(merged: Pick<MergedRole, 'pointerSources'>, pointer: string, fallback: string): string {
  for (let at = pointer; at !== ''; at = at.slice(0, at.lastIndexOf('/'))) {
    const found = merged.pointerSources.get(at);
    if (found) return found;
  }
  return fallback;
}

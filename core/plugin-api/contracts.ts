/**
 * The plugin contracts, in one table keyed by kind. Built-in plugins and users' plugins
 * implement exactly these; the core never special-cases a plugin by name. Each kind's hooks and
 * the types they take live in contracts/<kind>.ts; this file is their one entry point.
 */
import type { AdapterHooks } from './contracts/adapter.ts';
import type { PackerHooks } from './contracts/packer.ts';
import type { ParserHooks } from './contracts/parser.ts';
import type { PlanReaderHooks } from './contracts/plan-reader.ts';
import type { SandboxHooks } from './contracts/sandbox.ts';

export type * from './contracts/adapter.ts';
export type * from './contracts/packer.ts';
export type * from './contracts/parser.ts';
export type * from './contracts/plan-reader.ts';
export type * from '../process/process-result.ts';
export type * from './contracts/sandbox.ts';
export type * from '../git/worktree-git.ts';

/** The hooks of each plugin kind. */
export interface PluginKinds {
  adapter: AdapterHooks;
  packer: PackerHooks;
  parser: ParserHooks;
  'plan-reader': PlanReaderHooks;
  sandbox: SandboxHooks;
}

export type PluginKind = keyof PluginKinds;

export const PLUGIN_KINDS = ['adapter', 'packer', 'parser', 'plan-reader', 'sandbox'] as const satisfies readonly PluginKind[];

interface PluginIdentity<K extends PluginKind> {
  kind: K;
  /** Name used in role YAML and on the command line; equals the file stem by convention. */
  name: string;
  /** One line shown by `supervisor plugins list`. */
  description?: string;
}

export type Plugin<K extends PluginKind = PluginKind> = K extends PluginKind
  ? PluginIdentity<K> & PluginKinds[K]
  : never;

export type AdapterPlugin = Plugin<'adapter'>;
export type PackerPlugin = Plugin<'packer'>;
export type ParserPlugin = Plugin<'parser'>;
export type PlanReaderPlugin = Plugin<'plan-reader'>;
export type SandboxPlugin = Plugin<'sandbox'>;

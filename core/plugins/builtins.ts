/**
 * Built-in plugins, listed by static imports so that bundlers and pkg see them. Each kind's
 * list lives in its own folder's index so the plugins stay independent of each other.
 */
import type { Plugin } from '../plugin-api/contracts.ts';
import { adapters } from '../../plugins/adapters/index.ts';
import { packers } from '../../plugins/packers/index.ts';
import { parsers } from '../../plugins/parsers/index.ts';
import { planReaders } from '../../plugins/plan-readers/index.ts';
import { sandboxes } from '../../plugins/sandboxes/index.ts';

export interface BuiltinPlugin {
  /** Path relative to the project root, shown by `plugins list`. */
  file: string;
  plugin: Plugin;
}

export const builtinPlugins: readonly BuiltinPlugin[] = [...adapters, ...packers, ...parsers, ...planReaders, ...sandboxes];

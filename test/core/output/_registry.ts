/** A registry of the built-in parsers (plus any given plugins), without loading the other kinds. */
import type { Plugin } from '../../../core/plugin-api/contracts.ts';
import { createRegistry, type Registry } from '../../../core/registry.ts';
import { parsers } from '../../../plugins/parsers/index.ts';

export function parserRegistry(...extra: Plugin[]): Registry {
  return createRegistry([
    ...parsers.map(({ file, plugin }) => ({ plugin, source: `builtin:${file}`, layer: 'builtin' })),
    ...extra.map((plugin) => ({ plugin, source: '/test/plugin.ts', layer: 'cli' })),
  ]);
}

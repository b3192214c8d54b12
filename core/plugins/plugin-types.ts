/**
 * The declarations plugin authors type-check against (`supervisor plugins types`, written by
 * `plugins new`), generated from core/plugin-api/ by scripts/plugin-types.mjs: inlined into the
 * binary at build time, generated on demand from source (where the dev dependency typescript is).
 */
import { readAsset, PROJECT_ROOT } from '../assets.ts';
import { pluginErrors } from './errors.ts';

export const PLUGIN_TYPES_ASSET = 'types/supervisor-plugin.d.ts';
export const PLUGIN_TYPES_FILE = 'supervisor-plugin.d.ts';

let cached: string | undefined;

export async function loadPluginTypes(): Promise<string> {
  if (cached !== undefined) return cached;
  const inlined = readAsset(PLUGIN_TYPES_ASSET);
  if (inlined) return (cached = inlined.content);
  try {
    // A computed specifier: the bundler must not pull the script (and typescript) into the binary.
    const script = new URL('../../scripts/plugin-types.mjs', import.meta.url).href;
    const { renderPluginTypes } = (await import(script)) as { renderPluginTypes: (root: string) => string };
    return (cached = renderPluginTypes(PROJECT_ROOT));
  } catch (cause) {
    throw pluginErrors.typesUnavailable(cause);
  }
}

/** A tsconfig for a plugin folder: strict, no output, the declarations beside the plugins. */
export function pluginTsconfig(): string {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
    },
    include: ['*.ts', '*.mts', '*.cts'],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** The name plugin files import the public API by (package.json "exports": "./plugin"), from source and in the binary. */
export const PLUGIN_API_SPECIFIER = 'supervisor/plugin';

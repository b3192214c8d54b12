/** The built-in adapter plugins, in the order they are registered. */
import type { BuiltinPlugin } from '../../core/plugins/builtins.ts';

export const adapters: BuiltinPlugin[] = [];

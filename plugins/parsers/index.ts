/** The built-in parser plugins, in the order they are registered. */
import type { BuiltinPlugin } from '../../core/plugins/builtins.ts';

export const parsers: BuiltinPlugin[] = [];

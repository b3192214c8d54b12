/** The built-in parser plugins, in the order they are registered. */
import type { BuiltinPlugin } from '../../core/plugins/builtins.ts';
import fencedJson from './fenced-json.ts';
import v2Headers from './v2-headers.ts';

export const parsers: BuiltinPlugin[] = [
  { file: 'plugins/parsers/fenced-json.ts', plugin: fencedJson },
  { file: 'plugins/parsers/v2-headers.ts', plugin: v2Headers },
];

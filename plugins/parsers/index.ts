/** The built-in parser plugins, in the order they are registered. */
import type { Plugin } from '../../core/plugin-api/index.ts';
import fencedJson from './fenced-json.ts';
import v2Headers from './v2-headers.ts';

export const parsers: { file: string; plugin: Plugin }[] = [
  { file: 'plugins/parsers/fenced-json.ts', plugin: fencedJson },
  { file: 'plugins/parsers/v2-headers.ts', plugin: v2Headers },
];

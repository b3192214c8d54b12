/** Paths with '/' separators, as the core and packers write them. */
import { sep } from 'node:path';

/** Separators as the platform reads them: on Windows a backslash is a separator too. */
export function toPosix(value: string): string {
  return sep === '\\' ? value.replaceAll('\\', '/') : value;
}

/** The built-in packer plugins, in the order they are registered. */
import type { Plugin } from '../../core/plugin-api/index.ts';
import glob from './glob.ts';
import gitDiff from './git-diff.ts';
import repomix from './repomix.ts';

export const packers: { file: string; plugin: Plugin }[] = [
  { file: 'plugins/packers/glob.ts', plugin: glob },
  { file: 'plugins/packers/git-diff.ts', plugin: gitDiff },
  { file: 'plugins/packers/repomix.ts', plugin: repomix },
];

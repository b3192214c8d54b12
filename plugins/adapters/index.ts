/** The built-in adapter plugins, in the order they are registered. */
import type { Plugin } from '../../core/plugin-api/index.ts';
import claude from './claude.ts';
import cline from './cline.ts';
import codex from './codex.ts';
import gemini from './gemini.ts';
import replay from './replay.ts';

export const adapters: { file: string; plugin: Plugin }[] = [
  { file: 'plugins/adapters/claude.ts', plugin: claude },
  { file: 'plugins/adapters/codex.ts', plugin: codex },
  { file: 'plugins/adapters/gemini.ts', plugin: gemini },
  { file: 'plugins/adapters/cline.ts', plugin: cline },
  { file: 'plugins/adapters/replay.ts', plugin: replay },
];

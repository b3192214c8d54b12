/** The built-in sandbox plugins, in the order they are registered. */
import type { Plugin } from '../../core/plugin-api/index.ts';
import bwrap from './bwrap.ts';
import docker from './docker.ts';
import none from './none.ts';
import podman from './podman.ts';

export const sandboxes: { file: string; plugin: Plugin }[] = [
  { file: 'plugins/sandboxes/none.ts', plugin: none },
  { file: 'plugins/sandboxes/bwrap.ts', plugin: bwrap },
  { file: 'plugins/sandboxes/docker.ts', plugin: docker },
  { file: 'plugins/sandboxes/podman.ts', plugin: podman },
];

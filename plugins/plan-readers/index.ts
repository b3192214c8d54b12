/** The built-in plan readers (static imports: bundlers and pkg must see them). */
import type { Plugin } from '../../core/plugin-api/index.ts';
import planMarkdown from './plan-markdown.ts';
import workflowYaml from './workflow-yaml.ts';

export const planReaders: { file: string; plugin: Plugin }[] = [
  { file: 'plugins/plan-readers/plan-markdown.ts', plugin: planMarkdown },
  { file: 'plugins/plan-readers/workflow-yaml.ts', plugin: workflowYaml },
];

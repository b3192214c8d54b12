/** The built-in plan readers (static imports: bundlers and pkg must see them). */
import type { BuiltinPlugin } from '../../core/plugins/builtins.ts';
import planMarkdown from './plan-markdown.ts';
import workflowYaml from './workflow-yaml.ts';

export const planReaders: BuiltinPlugin[] = [
  { file: 'plugins/plan-readers/plan-markdown.ts', plugin: planMarkdown },
  { file: 'plugins/plan-readers/workflow-yaml.ts', plugin: workflowYaml },
];

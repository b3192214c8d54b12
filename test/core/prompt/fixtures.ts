/** Hand-made roles, schemas and template data for the prompt tests. */
import type { OutputSchema } from '../../../core/output/schemas.ts';
import type { Role } from '../../../core/roles/role.ts';
import { answerFormat } from '../../../core/output/answer-format.ts';
import { templateData, type TemplateData } from '../../../core/prompt/template-data.ts';
import { createRegistry, type Registry } from '../../../core/registry.ts';
import { createRole } from '../../../core/roles/role.ts';
import { parsers } from '../../../plugins/parsers/index.ts';

export function fakeRole(overrides: Partial<Role> = {}): Role {
  return createRole({
    name: 'reviewer',
    description: 'Reviews changes',
    cli: 'claude',
    system_prompt: 'You are SYSTEM-PROMPT-MARKER, a careful engineer.\n',
    file: '/nowhere/roles/reviewer.yaml',
    ...overrides,
  });
}

export const verdictSchema: OutputSchema = {
  name: 'verdict',
  file: '/nowhere/verdict.json',
  schema: {
    type: 'object',
    required: ['status', 'findings'],
    additionalProperties: false,
    properties: {
      status: { type: 'string', enum: ['OK', 'NOT_OK'], description: 'The verdict.' },
      findings: { type: 'array', items: { $ref: '#/$defs/finding' } },
      note: { type: ['string', 'null'], default: null },
    },
    $defs: {
      finding: { type: 'object', required: ['where'], properties: { where: { type: 'string' }, line: { type: 'integer', minimum: 1 } } },
    },
  },
};

/** The built-in parsers, for the answer format templates show. */
export const parserRegistry: Registry = createRegistry(parsers.map(({ file, plugin }) => ({ plugin, source: `builtin:${file}`, layer: 'builtin' })));

/** Template data as buildPrompt makes it; outputFormat is the role's parser's, unless given. */
export function fakeData(overrides: Partial<Parameters<typeof templateData>[0]> = {}): TemplateData {
  const role = overrides.role ?? fakeRole();
  const outputSchema = overrides.outputSchema ?? verdictSchema;
  return templateData({
    role,
    task: 'TASK-MARKER: tighten the checks',
    context: '## Target Files\n\nCONTEXT-MARKER\n',
    targets: ['src/a.ts'],
    extraContext: {},
    instructions: [],
    outputSchema,
    ...overrides,
    outputFormat:
      overrides.outputFormat ??
      answerFormat({ registry: parserRegistry, parser: role.parser ?? undefined, schema: outputSchema, role: { name: role.name, baseRole: role.base_role }, schemaInPrompt: true }),
  });
}

/** TemplateData is an interface; the renderer takes a plain record. */
export function asRecord(data: TemplateData): Record<string, unknown> {
  return data as unknown as Record<string, unknown>;
}

/** A registry with the built-in packers and parsers the prompt tests need (adapters are not used here). */
export async function packerRegistry(): Promise<Registry> {
  const glob = (await import('../../../plugins/packers/glob.ts')).default;
  const gitDiff = (await import('../../../plugins/packers/git-diff.ts')).default;
  return createRegistry([glob, gitDiff, ...parsers.map((p) => p.plugin)].map((plugin) => ({ plugin, source: 'builtin', layer: 'builtin' })));
}

/** Adapter names roles may use in these tests. */
export const ADAPTERS = ['claude', 'codex', 'gemini', 'cline', 'replay'];

/** Hand-made roles, schemas and template data for the prompt tests. */
import type { OutputSchema } from '../../../core/output/schemas.ts';
import type { Role } from '../../../core/roles/role.ts';
import { templateData, type TemplateData } from '../../../core/prompt/template-data.ts';
import { createRole } from '../../../core/roles/role.ts';

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

export function fakeData(overrides: Partial<Parameters<typeof templateData>[0]> = {}): TemplateData {
  return templateData({
    role: fakeRole(),
    task: 'TASK-MARKER: tighten the checks',
    context: '## Target Files\n\nCONTEXT-MARKER\n',
    targets: ['src/a.ts'],
    extraContext: {},
    instructions: [],
    outputSchema: verdictSchema,
    ...overrides,
  });
}

/** TemplateData is an interface; the renderer takes a plain record. */
export function asRecord(data: TemplateData): Record<string, unknown> {
  return data as unknown as Record<string, unknown>;
}

/** A registry with the built-in packers the prompt tests need (adapters are not used here). */
export async function packerRegistry(): Promise<import('../../../core/registry.ts').Registry> {
  const { createRegistry } = await import('../../../core/registry.ts');
  const glob = (await import('../../../plugins/packers/glob.ts')).default;
  const gitDiff = (await import('../../../plugins/packers/git-diff.ts')).default;
  return createRegistry([glob, gitDiff].map((plugin) => ({ plugin, source: 'builtin', layer: 'builtin' })));
}

/** Adapter names roles may use in these tests. */
export const ADAPTERS = ['claude', 'codex', 'gemini', 'cline', 'replay'];

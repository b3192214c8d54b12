/**
 * Errors of the prompt layer. Templates are code: every failure names the template, and for
 * render errors the line, so a user fixing an override in .supervisor/prompts/ knows where to look.
 */
import { SupervisorError } from '../errors.ts';

export const promptErrors = {
  /** The name is not a built-in template nor a file in <repo>/.supervisor/prompts/, or is path-like. */
  templateNotAllowed: (name: string, known: string[], reason: 'unknown' | 'path') =>
    new SupervisorError(
      'TEMPLATE_NOT_ALLOWED',
      reason === 'path'
        ? `Template name "${name}" is not allowed: template names are plain names, without path separators or ".."`
        : `Unknown template "${name}"`,
      {
        details: { template: name, known, reason },
        hint: `Allowed templates: ${known.join(', ')}. Add <repo>/.supervisor/prompts/<name>.eta to define your own.`,
      },
    ),

  /** Eta could not parse the template (unclosed tag, bad JS in a tag). */
  templateSyntax: (template: string, file: string, message: string, cause: unknown) =>
    new SupervisorError('TEMPLATE_SYNTAX', `Template "${template}" (${file}) has a syntax error: ${message}`, {
      details: { template, file },
      cause,
    }),

  /** A template used a variable the data does not have (Jinja2's StrictUndefined rule). */
  templateUndefined: (template: string, variable: string, line: number | null) =>
    new SupervisorError(
      'TEMPLATE_UNDEFINED_VARIABLE',
      `Template "${template}"${line === null ? '' : ` line ${line}`}: undefined variable "${variable}"`,
      {
        details: { template, variable, line },
        hint: 'Templates see it.role, it.task, it.context, it.targets, it.extraContext, it.instructions and it.outputSchema; test optional keys with `"key" in obj`.',
      },
    ),

  /** Any other exception while rendering (a helper given the wrong type, a throw in a tag). */
  templateRender: (template: string, line: number | null, message: string, cause: unknown) =>
    new SupervisorError('TEMPLATE_RENDER', `Template "${template}"${line === null ? '' : ` line ${line}`} failed: ${message}`, {
      details: { template, line },
      cause,
    }),

  /** An instruction file named by the role cannot be read. */
  instructionRead: (file: string, role: string, cause: unknown) =>
    new SupervisorError('INSTRUCTION_READ', `Cannot read instruction file ${file} of role "${role}": ${(cause as Error)?.message ?? String(cause)}`, {
      details: { file, role },
      cause,
      hint: 'Instruction files are resolved relative to the role file that names them.',
    }),
} as const;

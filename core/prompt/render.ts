/**
 * Renders allowlisted Eta templates with strict data. Three rules from seed 000 Task 2 hold here:
 * only names in the TemplateSet render (layouts and includes too); a variable the data lacks is
 * an error naming template, variable and line; user text is data, so it is only ever output by
 * a tag, never compiled (nothing here calls renderString on data).
 */
import { Eta, EtaParseError, type TemplateFunction } from 'eta/core';
import { isSupervisorError } from '../errors.ts';
import { promptErrors } from './errors.ts';
import { templateHelpers } from './helpers.ts';
import { strictData, UndefinedVariable } from './strict-data.ts';
import { getTemplate, type TemplateSet } from './templates.ts';
import { trimBlockTags } from './trim-blocks.ts';

export interface Renderer {
  /** The names that may render, sorted. */
  readonly names: string[];
  /** Renders one template with `data` as `it`. Throws TEMPLATE_* SupervisorErrors. */
  render(name: string, data: Record<string, unknown>): string;
}

type BaseRender = (this: Eta, template: string | TemplateFunction, data: object, meta?: { filepath: string }) => string;

/** Maps an exception from inside a template to a SupervisorError with template and line. */
function templateFailure(error: unknown, line: number, template: string): never {
  if (isSupervisorError(error)) throw error;
  if (error instanceof UndefinedVariable) throw promptErrors.templateUndefined(template, error.variable, line);
  if (error instanceof ReferenceError) {
    const name = /^(\S+) is not defined/.exec(error.message)?.[1];
    if (name) throw promptErrors.templateUndefined(template, name, line);
  }
  throw promptErrors.templateRender(template, line, (error as Error)?.message ?? String(error), error);
}

function syntaxMessage(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  // Eta's "Bad template syntax" message carries the whole compiled function; keep the JS reason.
  const parts = message.split('\n\n');
  return parts[0] === 'Bad template syntax' && parts[1] ? (parts[1].split('\n')[0] ?? message) : message.split('\n')[0] ?? message;
}

export function createRenderer(templates: TemplateSet): Renderer {
  const eta = new Eta({
    autoEscape: false,
    autoTrim: false,
    debug: true,
    cache: false,
    functionHeader: 'const { truncateLines, formatDiff } = this.helpers;',
    plugins: [{ processAST: trimBlockTags }],
  });
  Object.assign(eta, { helpers: templateHelpers });
  eta.RuntimeErr = ((error: unknown, _source: string, line: number, filepath: string) =>
    templateFailure(error, line, filepath)) as Eta['RuntimeErr'];

  const baseRender = eta.render as unknown as BaseRender;
  const compiled = new Set<string>();
  function load(name: string): void {
    if (compiled.has(name)) return;
    const source = getTemplate(templates, name);
    try {
      eta.loadTemplate(name, source.content);
    } catch (error) {
      if (error instanceof EtaParseError || error instanceof SyntaxError) throw promptErrors.templateSyntax(name, source.file, syntaxMessage(error), error);
      throw error;
    }
    compiled.add(name);
  }
  // Every render goes through here: the top-level call, include() and layout().
  const strictRender = function (this: Eta, template: string | TemplateFunction, data: object): string {
    if (typeof template !== 'string') throw promptErrors.templateNotAllowed('(compiled function)', [...templates.keys()], 'unknown');
    const name = getTemplate(templates, template).name;
    load(name);
    return baseRender.call(this, name, strictData(data as Record<string, unknown>), { filepath: name });
  };
  eta.render = strictRender as Eta['render'];

  return {
    names: [...templates.keys()].sort(),
    render: (name, data) => eta.render(name, data),
  };
}

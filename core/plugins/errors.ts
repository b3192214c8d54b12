/** Errors of plugin loading and hook calls beyond the shared ones in core/errors.ts. Codes are API. */
import { SupervisorError } from '../errors.ts';

export const pluginErrors = {
  /** A hook (or a module at import) that did not answer within its time limit. */
  timeout: (plugin: string, hook: string, limitMs: number) =>
    new SupervisorError('PLUGIN_TIMEOUT', hook === 'import' ? `Plugin ${plugin} did not finish loading within ${formatLimit(limitMs)}` : `Plugin ${plugin} did not answer in ${hook}() within ${formatLimit(limitMs)}`, {
      details: { plugin, hook, limit_ms: limitMs },
      hint: `A plugin hook must settle its promise. Fix the plugin, or raise the limit with SUPERVISOR_PLUGIN_TIMEOUT_MS (milliseconds).`,
    }),
  /** A hook returned something its contract does not allow. */
  resultShape: (plugin: string, hook: string, problems: string[]) =>
    new SupervisorError('PLUGIN_SHAPE', `Plugin ${plugin} returned the wrong shape from ${hook}(): ${problems.join('; ')}`, {
      details: { plugin, hook, problems },
      hint: `See the ${hook}() contract in supervisor/plugin (supervisor plugins types prints the declarations).`,
    }),
  /** Plugin code added keys to a shared built-in prototype (they were removed again). */
  pollution: (plugin: string, hook: string, keys: string[]) =>
    new SupervisorError('PLUGIN_SHAPE', `Plugin ${plugin} changed ${keys.join(', ')} in ${hook}; supervisor removed ${keys.length === 1 ? 'it' : 'them'} and refuses the plugin`, {
      details: { plugin, hook, problems: keys.map((key) => `${key}: added to a built-in prototype`) },
      hint: 'A plugin must not add properties to Object.prototype, Array.prototype or Function.prototype.',
    }),
  /** A plugin file that failed to load (syntax error, a throw at import), with where, when known. */
  importFailed: (file: string, location: { line: number; column: number } | undefined, cause: unknown) =>
    new SupervisorError('PLUGIN_IMPORT', `Plugin ${location ? `${file}:${location.line}:${location.column}` : file} failed to load: ${firstLine(cause)}`, {
      details: { file, ...(location ? { line: location.line, column: location.column } : {}) },
      cause,
      hint: 'Fix the error in the plugin file, or move it out of the plugin folder.',
    }),
  /** From source without the dev dependency typescript, the declarations cannot be generated. */
  typesUnavailable: (cause: unknown) =>
    new SupervisorError('PLUGIN_TYPES', `Cannot generate the plugin declarations from source: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
      hint: 'Install the dev dependencies (npm ci), or use the built binary, which carries the declarations.',
    }),
  /** The plugin's `name` differs from its file name. */
  nameMismatch: (file: string, name: string, stem: string) =>
    new SupervisorError('PLUGIN_NAME', `Plugin ${file} is named "${name}", but its file is ${stem}: a plugin's name must equal its file name`, {
      details: { file, name, stem },
      hint: `Rename the file to ${name}.<ext>, or set name: '${stem}'.`,
    }),
};

/** The reason without the loader's repetition of file and source (esbuild prints "file:L:C: ERROR: reason"). */
function firstLine(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  const lines = message.split('\n').map((line) => line.trim()).filter(Boolean);
  const reason = lines.find((line) => /: ERROR: /.test(line))?.replace(/^.*?: ERROR: /, '') ?? lines[0] ?? message;
  return reason;
}

function formatLimit(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

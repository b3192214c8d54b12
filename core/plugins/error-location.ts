/**
 * Where in a plugin file a load error points, as "file:line:column", so a user can go straight
 * to a syntax error. Loaders say it in different ways: esbuild (tsx) in the message
 * ("file:5:24: ERROR ..."), Node's CommonJS and type stripping in a decorated stack (a
 * "file:5" header, the source line and a caret under the column). Node's ES module loader says
 * nothing, so the file is parsed once more by a parser that does: the type stripper (Node >= 22.13,
 * always in the binary), which reads any JavaScript too.
 */
import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { Script } from 'node:vm';

export interface SourceLocation {
  line: number;
  column: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "file:L:C" inside the error's message (esbuild, some loaders). */
function fromMessage(file: string, text: string): SourceLocation | undefined {
  const match = new RegExp(`${escapeRegExp(file)}:(\\d+):(\\d+)`).exec(text);
  return match ? { line: Number(match[1]), column: Number(match[2]) + 1 } : undefined;
}

/** A decorated stack: "<file>:L" header, source lines, then a line with the caret under the column. */
export function fromDecoratedStack(stack: string): SourceLocation | undefined {
  const lines = stack.split('\n');
  const header = /:(\d+)$/.exec(lines[0] ?? '');
  if (!header) return undefined;
  const caretIndex = lines.findIndex((line, index) => index > 0 && /^\s*\^+\s*$/.test(line));
  if (caretIndex < 0) return undefined;
  return { line: Number(header[1]), column: lines[caretIndex]!.indexOf('^') + 1 };
}

type StripTypes = (source: string, options?: { mode?: string }) => string;

/** Parses the file again with a parser that reports where it fails; undefined when none can tell. */
function reparse(file: string, message: string): SourceLocation | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const strip = (nodeModule as unknown as { stripTypeScriptTypes?: StripTypes }).stripTypeScriptTypes;
  if (typeof strip === 'function') {
    const emitWarning = process.emitWarning;
    process.emitWarning = (() => {}) as typeof process.emitWarning; // "experimental": ours to know
    try {
      strip(source, { mode: 'strip' });
    } catch (error) {
      const found = fromDecoratedStack(String((error as Error)?.stack ?? ''));
      if (found) return found;
    } finally {
      process.emitWarning = emitWarning;
    }
  }
  // A script parse points at the same place only when it fails for the same reason (a module's
  // `import` fails a script earlier, for another reason).
  try {
    new Script(source, { filename: file });
  } catch (error) {
    if ((error as Error)?.message === message) return fromDecoratedStack(String((error as Error).stack ?? ''));
  }
  return undefined;
}

/** The location of a load error in `file`, when it can be told. */
export function loadErrorLocation(file: string, cause: unknown): SourceLocation | undefined {
  const message = cause instanceof Error ? cause.message : String(cause);
  const stack = cause instanceof Error ? String(cause.stack ?? '') : '';
  const found = fromMessage(file, message) ?? fromDecoratedStack(stack);
  if (found) return found;
  return cause instanceof SyntaxError ? reparse(file, message) : undefined;
}

/** "file:line:column" when the error's place is known, else the file. */
export function withLocation(file: string, cause: unknown): string {
  const found = loadErrorLocation(file, cause);
  return found ? `${file}:${found.line}:${found.column}` : file;
}

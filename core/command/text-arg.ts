/** Reads a text argument given as literal text, "@file" (relative to cwd), or "-" (stdin). */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { errors } from '../errors.ts';
import type { CliDeps } from './deps.ts';

export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export async function readTextArg(value: string, deps: Pick<CliDeps, 'cwd' | 'stdin'>, what = 'text'): Promise<string> {
  if (value === '-') return readStream(deps.stdin);
  if (value.startsWith('@')) {
    const file = resolve(deps.cwd, value.slice(1));
    try {
      return await readFile(file, 'utf8');
    } catch (cause) {
      throw errors.usage(`Cannot read the ${what} from ${file}: ${(cause as Error).message}`, `Give the ${what} as text, @file or - for stdin.`);
    }
  }
  return value;
}

/** Keys that would reach an object's prototype instead of becoming a key of their own. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Parses repeated "key=value" / "key=@file" options into a mapping. */
export async function readKeyValues(values: string[], deps: Pick<CliDeps, 'cwd' | 'stdin'>, option: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const item of values) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw errors.usage(`--${option} expects key=value or key=@file, got "${item}"`);
    const key = item.slice(0, eq);
    if (RESERVED_KEYS.has(key)) throw errors.usage(`--${option} ${key}=...: "${key}" cannot be a key`, `Choose another name; ${[...RESERVED_KEYS].join(', ')} are reserved.`);
    out[item.slice(0, eq)] = await readTextArg(item.slice(eq + 1), deps, `--${option} ${item.slice(0, eq)}`);
  }
  return out;
}

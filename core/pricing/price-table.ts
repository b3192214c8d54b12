/**
 * The price table: per model, list prices in USD per million input, output and cached-input
 * tokens. The built-in table (prices.json, dated) is data; a user file
 * (~/.supervisor/prices.yaml, same `models:` shape) overrides or adds models. Only the user's
 * own file is read, never a repository's: a repository could otherwise make its runs look free.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { SupervisorError } from '../errors.ts';
import { parseStrictYaml } from '../yaml/strict-yaml.ts';
import builtin from './prices.json' with { type: 'json' };

const Price = v.strictObject({ input: v.pipe(v.number(), v.minValue(0)), output: v.pipe(v.number(), v.minValue(0)), cached: v.optional(v.pipe(v.number(), v.minValue(0))) });
const UserFile = v.looseObject({ date: v.optional(v.union([v.string(), v.date()])), models: v.optional(v.record(v.string(), Price)), cli_default_models: v.optional(v.record(v.string(), v.string())) });

export type ModelPrice = v.InferOutput<typeof Price>;

export interface PriceTable {
  /** The built-in table's date (YYYY-MM-DD). */
  date: string;
  /** Prices by normalised model name. */
  models: Map<string, ModelPrice>;
  /** The model a CLI uses when it names none (codex), by adapter name. */
  cliDefaults: Map<string, string>;
  /** The user file that overrode the built-in table, if one did. */
  userFile: string | null;
}

/** Model names as the table keys them: lower case, no provider prefix, dots and @ as dashes. */
export function normaliseModel(name: string): string {
  return name.trim().toLowerCase().replace(/^.*\//, '').replace(/[.@]/g, '-');
}

/** The user's price file: ~/.supervisor/prices.yaml. */
export function userPriceFile(homeDir: string): string {
  return join(homeDir, '.supervisor', 'prices.yaml');
}

function builtinTable(): PriceTable {
  const models = new Map(Object.entries(builtin.models).map(([name, price]) => [normaliseModel(name), price as ModelPrice]));
  const cliDefaults = new Map(Object.entries(builtin.cli_default_models).filter(([cli]) => cli !== 'about'));
  return { date: builtin.date, models, cliDefaults, userFile: null };
}

function readUserFile(file: string): v.InferOutput<typeof UserFile> {
  const parsed = parseStrictYaml(readFileSync(file, 'utf8'));
  const bad = (detail: string) =>
    new SupervisorError('PRICES_INVALID', `The price file ${file} is not valid: ${detail}`, {
      hint: 'Write `models: { <model>: { input: <USD per million tokens>, output: <...>, cached: <...> } }` (cached optional), or remove the file to use the built-in table.',
      details: { file },
    });
  if (!parsed.ok) throw bad(`${parsed.problem.reason}${parsed.problem.where ? ` (line ${parsed.problem.where.line})` : ''}`);
  const checked = v.safeParse(UserFile, parsed.value ?? {});
  if (!checked.success) throw bad(checked.issues.map((i) => `${v.getDotPath(i) ?? '(top)'}: ${i.message}`).join('; '));
  return checked.output;
}

const cache = new Map<string, { stamp: string; table: PriceTable }>();

/** The built-in table with the user's file (if any) over it; read again when the file changed. */
export function loadPriceTable(homeDir: string): PriceTable {
  const file = userPriceFile(homeDir);
  const stat = statSync(file, { throwIfNoEntry: false });
  const stamp = stat ? `${stat.mtimeMs}:${stat.size}` : 'none';
  const known = cache.get(file);
  if (known?.stamp === stamp) return known.table;
  const table = builtinTable();
  if (stat) {
    const user = readUserFile(file);
    for (const [name, price] of Object.entries(user.models ?? {})) table.models.set(normaliseModel(name), price);
    for (const [cli, model] of Object.entries(user.cli_default_models ?? {})) table.cliDefaults.set(cli, model);
    table.userFile = file;
  }
  cache.set(file, { stamp, table });
  return table;
}

/** A dated or tagged release of a listed model ("-20250929", "-2025-08-07", "-latest", "-preview-05-20"). */
const RELEASE_SUFFIX = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-(latest|preview|exp)(-[a-z0-9]+)*)?$/;

/** The price of a model: its own entry, else the longest listed name it is a release of; undefined: no price. */
export function priceOf(table: PriceTable, model: string): { name: string; price: ModelPrice } | undefined {
  const wanted = normaliseModel(model);
  let best: string | undefined;
  for (const name of table.models.keys()) {
    if (wanted.startsWith(name) && RELEASE_SUFFIX.test(wanted.slice(name.length)) && (!best || name.length > best.length)) best = name;
  }
  return best === undefined ? undefined : { name: best, price: table.models.get(best)! };
}

/**
 * One reader of the JSON files in the remote's state commits (`task.json`, `result.json`,
 * `ledger.json`): other jobs wrote them, so each is untrusted input (SECURITY I7), parsed with
 * its valibot schema; anything else is REMOTE_STATE_INVALID naming the ref, file and field.
 */
import * as v from 'valibot';
import { remoteErrors } from '../../git/remote-errors.ts';
import { readFileAt, type RemoteGit } from '../../git/remote.ts';

type Schema<T> = v.GenericSchema<unknown, T>;

/** The first issue's field path (`(root)` for the whole value) and message. */
export function problemOf(issues: readonly v.BaseIssue<unknown>[]): { field: string; message: string } {
  const issue = issues[0]!;
  const field = (issue.path ?? []).map((p) => String(p.key)).join('.') || '(root)';
  return { field, message: issue.message };
}

/** `text` (the file `file` of `ref`; null: missing) parsed and checked against `schema`. */
export function parseStateJson<T>(text: string | null, schema: Schema<T>, file: string, ref: string): T {
  if (text === null) throw remoteErrors.stateInvalid(ref, file, 'is missing');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw remoteErrors.stateInvalid(ref, file, 'is not JSON');
  }
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) {
    const { field, message } = problemOf(parsed.issues);
    throw remoteErrors.stateInvalid(ref, `${file} ${field}`, message);
  }
  return parsed.output;
}

/** The file `file` of the state commit `commit` (of `ref`), parsed and checked. */
export async function readStateJson<T>(ctx: Pick<RemoteGit, 'repoRoot' | 'env'>, commit: string, file: string, ref: string, schema: Schema<T>): Promise<T> {
  return parseStateJson(await readFileAt(ctx, commit, file, ref), schema, file, ref);
}

/**
 * Which workflow a command means: a full id, `last` (the newest), or a unique prefix or any
 * unique part of one; no id at all is the newest (or, for resume, the newest unfinished).
 */
import { matchId } from '../../text/match-id.ts';
import { engineErrors } from './errors.ts';
import { RESUMABLE } from './result.ts';
import { listWorkflowIds, WorkflowStore } from './store.ts';

function unfinished(repoRoot: string, id: string): boolean {
  try {
    const result = new WorkflowStore(repoRoot, id).result();
    return !result || RESUMABLE.includes(result.status);
  } catch {
    return false;
  }
}

export function resolveWorkflowId(repoRoot: string, query: string | undefined, options: { unfinished?: boolean } = {}): string {
  const ids = listWorkflowIds(repoRoot);
  if (query === undefined || query === '') {
    const id = options.unfinished ? ids.find((i) => unfinished(repoRoot, i)) : ids[0];
    if (!id) throw engineErrors.notFound(options.unfinished ? '(the newest unfinished)' : '(the newest)', ids);
    return id;
  }
  if (query === 'last' || query === 'latest') {
    if (!ids[0]) throw engineErrors.notFound(query, ids);
    return ids[0];
  }
  const match = matchId(ids, query);
  if ('id' in match) return match.id;
  if ('ambiguous' in match) throw engineErrors.ambiguous(query, match.ambiguous);
  throw engineErrors.notFound(query, ids);
}

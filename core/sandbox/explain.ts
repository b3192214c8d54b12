/**
 * Why a failed CLI may have failed because of its sandbox, for the run's issues: connections the
 * egress proxy refused, a refused write in its stderr (EROFS, EACCES), a file it did not find in
 * a folder the sandbox makes private, a connection that found no network.
 */
import { DEFAULT_SANDBOX, type SandboxChoice } from './policy.ts';

/** An absolute path in a "not found" line of stderr that lies in an area the sandbox makes private. */
function missingPrivatePath(stderr: string, areas: { hidden: readonly string[]; visible: readonly string[] }): string | undefined {
  const within = (path: string, list: readonly string[]) => list.some((area) => area && area !== '/' && (path === area || path.startsWith(`${area}/`)));
  for (const line of stderr.split('\n')) {
    if (!/\bENOENT\b|No such file or directory/.test(line)) continue;
    for (const match of line.matchAll(/\/[^\s'"`,:;()]+/g)) {
      if (within(match[0], areas.hidden) && !within(match[0], areas.visible)) return match[0];
    }
  }
  return undefined;
}

/** Words in a CLI's stderr that mean the file system refused a write or a read. */
const FS_REFUSAL = /\b(EROFS|EACCES|EPERM)\b|Read-only file system|Permission denied|Operation not permitted/;
/** ... and that a connection found nothing listening (a loopback port that is not forwarded). */
const NET_REFUSAL = /\bECONNREFUSED\b|Connection refused|ENETUNREACH|Network is unreachable|EAI_AGAIN|ENOTFOUND/;

/** The explanation, or undefined when nothing points at the sandbox (always for `none`). */
export function sandboxExplanation(
  choice: Pick<SandboxChoice, 'name' | 'network'>,
  refused: readonly string[],
  stderr: string,
  areas: { hidden: readonly string[]; visible: readonly string[] } = { hidden: [], visible: [] },
): string | undefined {
  const { name } = choice;
  if (name === DEFAULT_SANDBOX) return undefined;
  const parts: string[] = [];
  const hidden = missingPrivatePath(stderr, areas);
  if (hidden) parts.push(`hides ${hidden} (your home, your checkout and /tmp are private inside; grant configuration through the adapter's access or sandbox.read_only)`);
  if (refused.length) parts.push(`refused connections to ${[...new Set(refused)].join(', ')} (allow them with --allow-host or the role's sandbox.allow)`);
  const line = stderr.split('\n').find((l) => FS_REFUSAL.test(l));
  if (line) parts.push(`refused a file access: ${line.trim().slice(0, 200)}`);
  const net = stderr.split('\n').find((l) => NET_REFUSAL.test(l));
  if (net && !refused.length && choice.network !== 'open') parts.push(`gives no network but the allowed hosts (forwarded loopback ports): ${net.trim().slice(0, 200)}`);
  return parts.length ? `the ${name} sandbox ${parts.join('; ')}` : undefined;
}

/**
 * The refused connections that may explain a failure: none when the provider answered that it
 * refuses the credentials (401, 403, an adapter's "authentication failed"): it was reached, so a
 * connection refused elsewhere (a CLI's telemetry or update host) did not cause it.
 */
export function refusalsThatMayExplain(failure: { class: string; httpStatus?: number; detail: string }, refused: readonly string[]): readonly string[] {
  const auth = failure.class === 'api_error' && (failure.httpStatus === 401 || failure.httpStatus === 403 || /\bauthentication failed\b/i.test(failure.detail));
  return auth ? [] : refused;
}

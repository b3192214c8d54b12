/**
 * A test that needs something the machine may lack (bubblewrap, a cgroup file system, the real
 * repomix, setsid): skipped with the reason on a developer's machine, a failure under CI=true,
 * where .ci/run installs everything the suite needs, so a green CI never hides a skipped case.
 */
import { spawnSync } from 'node:child_process';

/** node:test options for a test or suite that needs what `missing` names (undefined: it is there). */
export function requires(missing: string | undefined | false): { skip?: string } {
  if (!missing) return {};
  if (process.env.CI) throw new Error(`CI must run this test, but it cannot: ${missing}`);
  process.stderr.write(`\n*** SKIPPING: ${missing}\n\n`);
  return { skip: missing };
}

/** Why bubblewrap cannot run here (not installed, or no namespaces for it), or undefined. */
export function missingBwrap(): string | undefined {
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', '--unshare-net', 'true'], { encoding: 'utf8' });
  if (probe.error) return 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap';
  return probe.status === 0 ? undefined : `bwrap cannot create namespaces here: ${probe.stderr.trim()}`;
}

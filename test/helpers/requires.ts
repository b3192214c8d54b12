/**
 * A test that needs something the machine may lack (bubblewrap, a cgroup file system, the real
 * repomix, setsid): skipped with the reason on a developer's machine, a failure under CI=true,
 * where .ci/run installs everything the suite needs, so a green CI never hides a skipped case.
 */

/** node:test options for a test or suite that needs what `missing` names (undefined: it is there). */
export function requires(missing: string | undefined | false): { skip?: string } {
  if (!missing) return {};
  if (process.env.CI) throw new Error(`CI must run this test, but it cannot: ${missing}`);
  process.stderr.write(`\n*** SKIPPING: ${missing}\n\n`);
  return { skip: missing };
}

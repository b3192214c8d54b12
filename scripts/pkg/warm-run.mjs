// The code cache's second warm run (see code-cache.cjs): a real `run reviewer` of the bundle in a
// one-file repository with a claude that answers at once, so the functions a run needs (roles,
// packing, the worktree, the attempt, the answer's checks) are compiled into the cache instead
// of on every start of a run. Everything it makes is under `dir`, removed by the caller.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const VERDICT = '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n';
const ENVELOPE = {
  type: 'result', subtype: 'success', is_error: false, duration_ms: 1, num_turns: 1, session_id: 'warm-run', total_cost_usd: 0, result: VERDICT,
  usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
};

/** Makes the repository and the fake claude; returns where to run, the PATH folder to put first, and the arguments. */
export function warmRunPlace(dir) {
  rmSync(dir, { recursive: true, force: true });
  const repo = join(dir, 'repo');
  const bin = join(dir, 'bin');
  mkdirSync(repo, { recursive: true });
  mkdirSync(bin);
  const git = (...args) => execFileSync('git', ['-c', 'user.email=build@localhost', '-c', 'user.name=build', ...args], { cwd: repo, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(join(repo, 'math.js'), 'export const add = (a, b) => a + b;\n');
  git('add', '.');
  git('commit', '-qm', 'warm run');
  writeFileSync(join(bin, 'envelope.json'), `${JSON.stringify(ENVELOPE)}\n`);
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\ncat >/dev/null\ncat '${join(bin, 'envelope.json')}'\n`);
  chmodSync(join(bin, 'claude'), 0o755);
  const args = ['run', 'reviewer', '--cli', 'claude', '--task', 'Review math.js', '--target', 'math.js', '--retries', '0', '--sandbox', 'none', '--json'];
  return { repo, bin, args };
}

// What the sandbox and MCP benches share: the built binary checked, a one-file repository and a
// fake claude that answers at once with its real JSON envelope, and the median of samples.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeEnvelope } from '../../test/fixtures/bin/_fake-envelopes.mjs';

/** Exits 2 naming the bench when the binary is missing. */
export function requireBinary(bench, binary) {
  try {
    statSync(binary ?? '');
  } catch {
    console.error(`${bench} bench: ${binary} is missing; run "npm run build" first.`);
    process.exit(2);
  }
}

/** A scratch folder with `repo` (math.js, one commit) and the environment whose PATH finds the instant claude. */
export function instantReviewer(prefix) {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const repo = join(scratch, 'repo');
  const fakes = join(scratch, 'fakes');
  mkdirSync(repo);
  mkdirSync(fakes);
  const git = (...args) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(join(repo, 'math.js'), 'export const add = (a, b) => a + b;\n');
  git('add', '.');
  git('-c', 'user.email=bench@example.com', '-c', 'user.name=bench', 'commit', '-qm', 'init');
  const reply = '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n';
  writeFileSync(join(fakes, 'envelope.json'), claudeEnvelope(reply, ['-p', '--output-format', 'json']));
  writeFileSync(join(fakes, 'claude'), `#!/bin/sh\ncat >/dev/null\ncat "${join(fakes, 'envelope.json')}"\n`);
  chmodSync(join(fakes, 'claude'), 0o755);
  const env = { PATH: `${fakes}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: join(scratch, 'home'), LANG: 'C.UTF-8' };
  mkdirSync(env.HOME);
  return { scratch, repo, env };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { GITLAB_MAX_NEEDS, renderGitlabCi } from '../../../../core/workflow/export/gitlab-ci.ts';
import { tempDir } from '../../../helpers/git-repo.ts';
import { DIAMOND, SHA, spec, task, wide } from './_spec.ts';

type Job = { needs?: string[]; stage?: string; when?: string; timeout: string; script: string[] };
const jobsOf = (text: string) => parse(text) as Record<string, Job> & { stages?: string[]; variables: Record<string, string> };

describe('workflow export --to gitlab-ci (generator)', () => {
  it("gives each task a job whose needs are the plan's depends_on, and a final job needing every task", () => {
    const doc = jobsOf(renderGitlabCi(spec(DIAMOND)).text);
    for (const t of DIAMOND) assert.deepEqual(doc[`task-${t.id}`]!.needs, t.depends_on.map((d) => `task-${d}`), t.id);
    assert.deepEqual(doc.final!.needs, DIAMOND.map((t) => `task-${t.id}`));
    assert.equal(doc.final!.when, 'always');
    assert.equal(doc.stages, undefined, 'no stages while every job has at most 50 needs');
    assert.equal(doc.variables.GIT_DEPTH, '0', 'full history');
    assert.equal(doc['task-a']!.timeout, '42m');
    assert.equal(doc.final!.timeout, '17m');
  });

  it('runs the same binary with the plan pinned by sha256, the remote from SUPERVISOR_REMOTE and the flags as given, through a real shell', async () => {
    const doc = jobsOf(renderGitlabCi(spec(DIAMOND)).text);
    const dir = await tempDir('sv-export-argv-');
    const echo = join(dir, 'echo-args');
    writeFileSync(echo, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
    chmodSync(echo, 0o755);
    const argv = (line: string, env: Record<string, string>) => execFileSync('sh', ['-c', line], { env: { PATH: process.env.PATH, SUPERVISOR: echo, ...env }, encoding: 'utf8' }).trimEnd().split('\n');
    const flags = ['--sandbox', 'bwrap', '--allow-command', "npm test -- --grep 'x'"];
    assert.deepEqual(argv(doc['task-b']!.script[0]!, {}), ['workflow', 'task', 'wf-1', 'b', '--plan', 'plans/demo.yaml', '--plan-sha256', SHA, '--remote', 'origin', ...flags]);
    assert.deepEqual(argv(doc.final!.script[0]!, { SUPERVISOR_REMOTE: 'shared' }), ['workflow', 'task', 'wf-1', '--final', '--plan', 'plans/demo.yaml', '--plan-sha256', SHA, '--remote', 'shared', ...flags]);
    const named = jobsOf(renderGitlabCi(spec(DIAMOND, { remote: "odd 'name'" })).text);
    assert.ok(argv(named['task-a']!.script[0]!, { SUPERVISOR_REMOTE: 'ignored' }).includes("odd 'name'"));
  });

  it(`a job with more than ${GITLAB_MAX_NEEDS} needs waits by stages instead, and the export says so`, () => {
    const tasks = [...wide(51), task('after', ['t1'])];
    const file = renderGitlabCi(spec(tasks));
    const doc = jobsOf(file.text);
    assert.deepEqual(doc.stages, ['supervisor-0', 'supervisor-1', 'supervisor-2']);
    assert.equal(doc.final!.needs, undefined, 'the final job (52 needs) waits by stage');
    assert.equal(doc.final!.stage, 'supervisor-2');
    assert.equal(doc.t1, undefined);
    assert.equal(doc['task-t1']!.stage, 'supervisor-0');
    assert.deepEqual(doc['task-t1']!.needs, []);
    assert.equal(doc['task-after']!.stage, 'supervisor-1');
    assert.deepEqual(doc['task-after']!.needs, ['task-t1'], 'jobs within the limit keep their needs');
    assert.equal(file.notices.length, 1);
    assert.match(file.notices[0]!, /\bfinal waits by stages\b/);
    assert.match(file.text, /# Note: GitLab allows at most 50 needs/);
    // 50 needs: no fallback.
    const fifty = renderGitlabCi(spec(wide(50)));
    assert.deepEqual(fifty.notices, []);
    assert.equal(jobsOf(fifty.text).final!.needs!.length, 50);
  });

  it('is deterministic: the same plan gives the same bytes, with no date in them', () => {
    const one = renderGitlabCi(spec(DIAMOND)).text;
    assert.equal(renderGitlabCi(spec(DIAMOND.map((t) => ({ ...t })))).text, one);
    assert.doesNotMatch(one, /\b20\d\d-\d\d-\d\d/);
    assert.notEqual(renderGitlabCi(spec(DIAMOND, { plan: { path: 'plans/demo.yaml', sha256: 'f'.repeat(64) } })).text, one);
  });

  it('names the secrets a runner needs in its header, by name only', () => {
    const { text } = renderGitlabCi(spec(DIAMOND));
    assert.match(text, /^# {3}- their keys as CI secrets, by name: ANTHROPIC_API_KEY, NPM_TOKEN$/m);
    assert.match(text, /^# {3}- the CLIs the plan runs: claude$/m);
    assert.match(text, new RegExp(`^# Plan sha256: ${SHA}`, 'm'));
    // The header is comments only: the YAML holds no secret's name outside them.
    const body = text.split('\n').filter((l) => !l.startsWith('#')).join('\n');
    assert.doesNotMatch(body, /ANTHROPIC_API_KEY/);
  });
});

/** Recorded workflow settings: what a later command may tighten, what needs --loosen, and that only our own file is read back. */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { applyGiven, readSettings, settingsFile, startingSettings, writeSettings } from '../../../core/app/settings.ts';
import { tempDir } from '../../helpers/git-repo.ts';

const TRUST = { repository: false, via: 'none', plan_commands: true };
const started = startingSettings('wf-1', { sandbox: 'bwrap', allow_commands: ['npm test'], allow_hosts: ['example.com:443'], pass_env: ['TOKEN'], jobs: 2 }, TRUST);

describe('recorded workflow settings', () => {
  it('a later command that gives nothing keeps every recorded setting', () => {
    const { settings, loosened, tightened } = applyGiven(started, {});
    assert.deepEqual([settings.sandbox, settings.allow_commands, settings.allow_hosts, settings.pass_env, settings.jobs], ['bwrap', ['npm test'], ['example.com:443'], ['TOKEN'], 2]);
    assert.deepEqual([loosened, tightened], [[], []]);
  });

  it('dropping the sandbox, another allowed command, host or variable is loosening; fewer is tightening', () => {
    assert.deepEqual(applyGiven(started, { sandbox: 'none' }).loosened, ['sandbox bwrap → none']);
    assert.match(applyGiven(started, { allow_commands: ['npm test', 'rm'] }).loosened.join(), /allowed commands adds "rm"/);
    assert.match(applyGiven(started, { allow_hosts: ['evil.com:443'] }).loosened.join(), /allowed hosts adds/);
    assert.match(applyGiven(started, { pass_env: ['AWS_SECRET'] }).loosened.join(), /passed variables adds/);
    const none = startingSettings('wf-1', {}, TRUST);
    assert.deepEqual(applyGiven(none, { sandbox: 'bwrap' }), { settings: { ...none, sandbox: 'bwrap' }, loosened: [], tightened: ['sandbox none → bwrap'] });
    const fewer = applyGiven({ ...started, allow_commands: ['npm test', 'npm run lint'] }, { allow_commands: ['npm test'] });
    assert.deepEqual([fewer.loosened, fewer.settings.allow_commands], [[], ['npm test']]);
  });

  it('tuning numbers and CLI choices apply without --loosen', () => {
    const { settings, loosened } = applyGiven(started, { jobs: 4, max_cost_usd: 9, cli: { all: 'codex', byRole: {} } });
    assert.deepEqual([settings.jobs, settings.max_cost_usd, settings.cli?.all, loosened], [4, 9, 'codex', []]);
  });

  it('read back: ours (written by writeSettings with this HOME), foreign (any other bytes), none', async () => {
    const repo = await tempDir('sv-settings-repo-');
    const home = await tempDir('sv-settings-home-');
    assert.equal(readSettings(repo, 'wf-1', home).kind, 'none');
    writeSettings(repo, home, started);
    assert.deepEqual(readSettings(repo, 'wf-1', home), { kind: 'ours', settings: started });
    assert.equal(readSettings(repo, 'wf-1', await tempDir('sv-other-home-')).kind, 'foreign', 'another HOME did not write it');
    const file = settingsFile(repo, 'wf-1');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ ...started, sandbox: null }));
    assert.equal(readSettings(repo, 'wf-1', home).kind, 'foreign', 'a file a repository carries is not ours');
    assert.equal(join(repo, '.supervisor', 'workflows', 'wf-1', 'settings.json'), file);
  });
});

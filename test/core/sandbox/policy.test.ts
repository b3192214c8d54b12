/** Settling the sandbox and each process's policy from the role, the flags and the adapter. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseSandbox, cliPolicy, gatePolicy } from '../../../core/sandbox/policy.ts';
import { baseUrlHostPort, parseHostPort } from '../../../core/sandbox/host-port.ts';
import { allowedEnv } from '../../../core/sandbox/env-allowlist.ts';

describe('sandbox policy', () => {
  it('defaults: no sandbox; in a sandbox the CLI gets allow mode and gates none', () => {
    const choice = chooseSandbox({});
    assert.equal(choice.name, 'none');
    assert.equal(choice.network, 'allow');
    assert.equal(choice.gateNetwork, 'none');
    assert.deepEqual(choice.limits, { pids: 512, memoryMb: 4096, cpus: 2 });
  });

  it('the flag overrides the role; another sandbox on the command line takes none of the role\'s options', () => {
    const role = { name: 'docker', image: 'x:1', network: 'open', allow: ['a.example:443'] };
    assert.deepEqual(chooseSandbox({ role, flag: 'docker' }).options, { image: 'x:1' });
    const other = chooseSandbox({ role, flag: 'bwrap', allowHosts: ['LOCALHOST:8080'] });
    assert.equal(other.name, 'bwrap');
    assert.deepEqual(other.options, {});
    assert.equal(other.network, 'allow');
    assert.deepEqual(other.allow, ['localhost:8080']);
    assert.deepEqual(chooseSandbox({ role, allowHosts: ['a.example:443', '[::1]:9'] }).allow, ['a.example:443', '[::1]:9']);
  });

  it('the CLI adds its adapter\'s hosts, its base URL\'s host:port and its configuration paths', () => {
    const choice = chooseSandbox({ flag: 'bwrap', allowHosts: ['127.0.0.1:8080'] });
    const access = {
      hosts: ['api.anthropic.com:443'],
      baseUrlEnv: ['ANTHROPIC_BASE_URL', 'UNSET_URL'],
      config: [{ path: '~/.claude.json' }, { path: '~/.codex/config.toml', env: 'CODEX_HOME', mode: 'bind' as const }],
    };
    const policy = cliPolicy(choice, access, { ANTHROPIC_BASE_URL: 'https://proxy.corp:8443/v1', CODEX_HOME: '/etc/codex' }, '/home/u');
    assert.deepEqual(policy.allow, ['127.0.0.1:8080', 'api.anthropic.com:443', 'proxy.corp:8443']);
    assert.deepEqual(policy.config, [{ path: '/home/u/.claude.json', mode: 'copy' }, { path: '/etc/codex', mode: 'bind' }]);
    const gemini = { config: [{ path: '~/.gemini', env: 'GEMINI_CLI_HOME', under: '.gemini' }, { path: '~' }, { path: '/' }] };
    assert.deepEqual(cliPolicy(choice, gemini, { GEMINI_CLI_HOME: '/srv/g' }, '/home/u').config, [{ path: '/srv/g/.gemini', mode: 'copy' }], 'never the home itself');
    const strict = cliPolicy(chooseSandbox({ role: { name: 'bwrap', adapter_hosts: false, allow: ['127.0.0.1:1'] } }), access, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:2' }, '/home/u');
    assert.deepEqual(strict.allow, ['127.0.0.1:1']);
    const gate = gatePolicy(choice);
    assert.deepEqual([gate.network, gate.allow, gate.config], ['none', [], []]);
  });

  it('the environment: the role\'s env and --pass-env for CLI and gates; the adapter\'s declared names and its command\'s only for the CLI', () => {
    const choice = chooseSandbox({ role: { name: 'bwrap', env: ['NPM_TOKEN'] }, passEnv: ['AWS_*', 'NPM_TOKEN'] });
    assert.deepEqual(choice.env, ['NPM_TOKEN', 'AWS_*']);
    assert.deepEqual(choice.options, {}, 'env is the core\'s, not an option of the plugin');
    const cli = cliPolicy(choice, { env: ['ANTHROPIC_*'], baseUrlEnv: ['ANTHROPIC_BASE_URL'] }, {}, '/home/u', ['DISABLE_TELEMETRY']);
    assert.deepEqual(cli.env, ['NPM_TOKEN', 'AWS_*', 'ANTHROPIC_*', 'ANTHROPIC_BASE_URL', 'DISABLE_TELEMETRY']);
    assert.deepEqual(gatePolicy(choice).env, ['NPM_TOKEN', 'AWS_*']);
    const env = { PATH: '/bin', LC_ALL: 'C', SUPERVISOR_RUN_ID: 'r', AWS_KEY: 'a', ANTHROPIC_API_KEY: 'k', MY_SECRET_TOKEN: 's', SSH_AUTH_SOCK: '/run/x', XDG_RUNTIME_DIR: '/run/user/0' };
    assert.deepEqual(Object.keys(allowedEnv(env, cli.env)).sort(), ['ANTHROPIC_API_KEY', 'AWS_KEY', 'LC_ALL', 'PATH', 'SUPERVISOR_RUN_ID']);
    assert.throws(() => chooseSandbox({ passEnv: ['A=B'] }), /sandbox\.env: expected a list of variable names/);
    assert.throws(() => chooseSandbox({ role: { name: 'bwrap', env: 'X' } }), /sandbox\.env/);
  });

  it('refuses bad values with the field and what was expected', () => {
    assert.throws(() => chooseSandbox({ role: { name: 'bwrap', network: 'some' } }), /sandbox\.network: expected none, allow or open/);
    assert.throws(() => chooseSandbox({ allowHosts: ['http://x:80'] }), /sandbox\.allow: expected a "host:port" entry/);
    assert.throws(() => chooseSandbox({ role: { name: 'bwrap', pids: -1 } }), /sandbox\.pids: expected a positive number/);
    assert.throws(() => chooseSandbox({ role: { name: '../x' } }), /sandbox\.name/);
  });

  it('host:port and base URLs', () => {
    assert.deepEqual(parseHostPort('Api.Example.com:443'), { host: 'api.example.com', port: 443 });
    assert.deepEqual(parseHostPort('[::1]:8080'), { host: '::1', port: 8080 });
    assert.equal(parseHostPort('example.com'), undefined);
    assert.equal(parseHostPort('example.com:70000'), undefined);
    assert.deepEqual(baseUrlHostPort('http://127.0.0.1:9/x'), { host: '127.0.0.1', port: 9 });
    assert.deepEqual(baseUrlHostPort('https://api.x.ai'), { host: 'api.x.ai', port: 443 });
    assert.equal(baseUrlHostPort('not a url'), undefined);
  });
});

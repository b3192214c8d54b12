/**
 * The run's tracking cgroup (root, or a delegated cgroup v2 subtree): a process started through
 * its prefix is in it with everything it forks, also after `setsid` and `env -i`; remove() ends
 * them and the group; empty groups that a killed supervisor left are swept when a new one is made.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { findRunCgroup, runCgroup, trackingMechanism } from '../../../core/process/cgroup.ts';
import { alive } from '../../helpers/processes.ts';
import { requires } from '../../helpers/requires.ts';

const noCgroup = trackingMechanism().mechanism !== 'cgroup' && 'supervisor cannot make cgroups here (needs root or a delegated cgroup v2 subtree)';

describe('the run tracking cgroup', requires(noCgroup), () => {
  it('holds what the process forks, after setsid and env -i too; remove() ends it all and removes the group', async () => {
    const name = `supervisor-run-test-${process.pid}`;
    const group = runCgroup(name)!;
    assert.ok(group && existsSync(group.dirs[0]!));
    assert.equal(findRunCgroup(name)?.dirs[0], group.dirs[0]);
    const [bin, ...args] = [...group.prefix, '/bin/sh', '-c', 'env -i setsid sleep 600 >/dev/null 2>&1 < /dev/null & echo $!'];
    const child = spawn(bin!, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    const daemon = Number(out.trim());
    assert.ok(alive(daemon));
    assert.ok(group.pids().includes(daemon), 'the detached daemon is still in the group');
    await group.remove();
    assert.ok(!alive(daemon), 'ended');
    assert.ok(!existsSync(group.dirs[0]!), 'removed');
  });

  it('sweeps empty groups left behind (older than ten minutes) when a new one is made; keeps recent ones', () => {
    const probe = runCgroup(`supervisor-run-test-probe-${process.pid}`)!;
    const parent = dirname(probe.dirs[0]!);
    probe.remove();
    const stale = join(parent, `supervisor-run-test-stale-${process.pid}`);
    const recent = join(parent, `supervisor-run-test-recent-${process.pid}`);
    mkdirSync(stale);
    mkdirSync(recent);
    const old = new Date(Date.now() - 3600_000);
    try {
      utimesSync(stale, old, old);
    } catch {
      // a cgroup file system that keeps its own times: nothing to sweep by age
    }
    const group = runCgroup(`supervisor-run-test-new-${process.pid}`)!;
    try {
      assert.equal(existsSync(recent), true);
      if (existsSync(stale)) assert.fail('the stale empty group was not swept');
    } finally {
      for (const dir of [stale, recent]) if (existsSync(dir)) findRunCgroup(dir.slice(parent.length + 1))?.remove();
    }
    return group.remove();
  });
});

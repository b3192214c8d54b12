/** What of the host a bwrap sandbox shows: the toolchain and chosen /etc files, and a script's interpreter. */
import assert from 'node:assert/strict';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ETC_ENTRIES, hostViewArgs, interpreterOf } from '../../../plugins/sandboxes/_host-view.ts';
import { tempDir } from '../../helpers/git-repo.ts';

describe('bwrap host view', () => {
  it('shows the toolchain and chosen /etc files, read-only or as links; nothing of /run, /var, /home, /root, /etc/shadow', () => {
    const args = hostViewArgs();
    const targets: string[] = [];
    for (let i = 0; i < args.length; i += 3) {
      assert.ok(['--ro-bind', '--symlink'].includes(args[i]!), `only read-only binds and links: ${args[i]}`);
      targets.push(args[i + 2]!);
    }
    if (process.platform === 'linux') assert.ok(targets.includes('/usr'));
    for (const target of targets) {
      assert.ok(/^\/(usr|bin|sbin|lib\w*|nix\/store)$/.test(target) || ETC_ENTRIES.includes(target), `${target} is not part of the host view`);
    }
    for (const never of ['/run', '/var', '/home', '/root', '/tmp', '/etc', '/etc/shadow', '/etc/sudoers', '/etc/ssh']) assert.ok(!targets.includes(never), never);
  });

  it("finds a script's interpreter: #!/usr/bin/env node on PATH, env -S with flags, an absolute path; none for a binary", async () => {
    const dir = await tempDir('sv-interp-');
    const write = async (name: string, text: string) => {
      await writeFile(join(dir, name), text);
      await chmod(join(dir, name), 0o755);
      return join(dir, name);
    };
    const which = (bin: string) => (bin === 'node' ? '/opt/node/bin/node' : null);
    assert.equal(interpreterOf(await write('a', '#!/usr/bin/env node\n'), which), '/opt/node/bin/node');
    assert.equal(interpreterOf(await write('b', '#!/usr/bin/env -S node --no-warnings\n'), which), '/opt/node/bin/node');
    assert.equal(interpreterOf(await write('c', '#!/bin/sh\n'), which), '/bin/sh');
    assert.equal(interpreterOf(await write('d', '#!/usr/bin/env python9\n'), which), undefined);
    assert.equal(interpreterOf(await write('e', '\x7fELF\x02\x01'), which), undefined);
    assert.equal(interpreterOf(join(dir, 'missing'), which), undefined);
  });
});

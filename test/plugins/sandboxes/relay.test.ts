/**
 * systemd's socket relay for the network holder (plugins/sandboxes/_relay.ts): used only where
 * both programs are here and not switched off; ready only once every port said it listens; a
 * relay that says anything else first has failed (the holder then settles at once and the wrap
 * starts its own bridge), and the socket paths reach the shell as arguments, never as script.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { systemdRelay } from '../../../plugins/sandboxes/_relay.ts';

const here = ['/usr/bin/systemd-socket-activate', '/bin/systemd-socket-activate'].some(existsSync) && ['/usr/lib/systemd/systemd-socket-proxyd', '/lib/systemd/systemd-socket-proxyd'].some(existsSync);
const listeners = [
  { port: 3128, socket: '/tmp/sv-sandbox-net-x/proxy.sock' },
  { port: 8080, socket: "/tmp/odd name $(touch pwned) ';/fwd-8080.sock" },
];

describe('systemd socket relay', () => {
  it('is not used when SUPERVISOR_NO_SYSTEMD_RELAY=1, and is used where both programs are here', () => {
    assert.equal(systemdRelay(listeners, { SUPERVISOR_NO_SYSTEMD_RELAY: '1' }), undefined);
    assert.equal(systemdRelay(listeners, {}) !== undefined, here);
  });

  it('is ready once every port said it listens, has failed when a relay said anything else first', { skip: !here && 'systemd-socket-activate or systemd-socket-proxyd is not installed here' }, () => {
    const relay = systemdRelay(listeners, {})!;
    assert.equal(relay.listening(''), undefined);
    assert.equal(relay.listening('Listening on 127.0.0.1:3128 as 3.\n'), undefined, 'one of two ports');
    assert.equal(relay.listening('Listening on 127.0.0.1:3128 as 3.\nListening on 127.0.0'), undefined, 'a line not whole yet');
    assert.equal(relay.listening('Listening on 127.0.0.1:8080 as 3.\nListening on 127.0.0.1:3128 as 3.\n'), true);
    assert.equal(relay.listening('Listening on 127.0.0.1:3128 as 3.\nFailed to listen on 127.0.0.1:8080: Address in use\n'), false);
  });

  it('gives the socket paths to the shell as arguments, never inside its script', { skip: !here && 'systemd-socket-activate or systemd-socket-proxyd is not installed here' }, () => {
    const { words } = systemdRelay(listeners, {})!;
    assert.deepEqual(words.slice(0, 2), ['/bin/sh', '-c']);
    const script = words[2]!;
    assert.ok(!script.includes('pwned') && !script.includes('proxy.sock'), script);
    assert.deepEqual(words.slice(-2), ['3128=/tmp/sv-sandbox-net-x/proxy.sock', `8080=${listeners[1]!.socket}`]);
  });
});

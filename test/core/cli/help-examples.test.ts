import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { CommandDef } from '../../../core/command/command.ts';
import { commands } from '../../../core/cli/commands/index.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

/** Every command with the words that call it, e.g. ['workflow', 'approve']. */
function walk(defs: CommandDef[], parents: string[] = []): { path: string[]; def: CommandDef }[] {
  return defs.flatMap((def) => {
    const path = [...parents, def.command.split(' ')[0]!];
    return [{ path, def }, ...walk(def.subcommands ?? [], path)];
  });
}

const leaves = walk(commands).filter(({ def, path }) => !def.subcommands?.length && !path.some((word) => word.startsWith('__')));

describe('every subcommand\'s help shows its own options and an example before the global ones', () => {
  let cwd = '';
  let home = '';
  before(async () => {
    cwd = await tempDir('sv-help-ex-');
    home = await tempDir('sv-help-ex-home-');
  });
  after(async () => {
    await rm(cwd, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('each visible leaf command has an example that calls that command', () => {
    assert.ok(leaves.length > 20, String(leaves.length));
    for (const { path, def } of leaves) {
      assert.ok(def.example, `${path.join(' ')} has no example`);
      assert.ok(def.example.command.startsWith(`$0 ${path.join(' ')}`), `${path.join(' ')}: ${def.example.command}`);
      assert.ok(def.example.describe.length > 0, path.join(' '));
    }
  });

  for (const path of [['run'], ['workflow', 'approve'], ['runs', 'list']]) {
    it(`${path.join(' ')} --help: command line, description, example, own options, then global options`, async () => {
      const def = leaves.find((leaf) => leaf.path.join(' ') === path.join(' '))!.def;
      const help = await runCli([...path, '--help'], { cwd, homeDir: home });
      assert.equal(help.code, 0, help.stderr);
      const text = help.stdout;
      assert.ok(text.startsWith(`supervisor ${path.slice(0, -1).concat(def.command).join(' ')}\n\n`), text);
      const example = text.indexOf('\nExample:\n  supervisor ');
      const command = def.example!.command.replace('$0', 'supervisor');
      const firstLine = text.indexOf(command.slice(0, 40));
      const own = text.search(/\n {6}--[a-z]/);
      const global = text.indexOf('\nGlobal options:\n');
      assert.ok(example > 0 && example < firstLine, text);
      assert.ok(firstLine < own && own < global, text);
      assert.ok(text.indexOf(def.example!.describe.split(' ').slice(0, 3).join(' ')) < own, text);
      assert.doesNotMatch(text, /Examples:/);
      assert.ok(Math.max(...text.split('\n').map((line) => line.length)) <= 100, text);
    });
  }

  it('the top-level help and a parent command\'s listing show no example', async () => {
    for (const argv of [['--help'], ['workflow', '--help']]) {
      const help = await runCli(argv, { cwd, homeDir: home });
      assert.equal(help.code, 0, help.stderr);
      assert.doesNotMatch(help.stdout, /Example/);
      assert.match(help.stdout, /Commands:/);
    }
  });
});

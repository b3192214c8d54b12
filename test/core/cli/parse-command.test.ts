import assert from 'node:assert/strict';
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeRepo } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/output/', import.meta.url));
const captures = fileURLToPath(new URL('../../fixtures/cli/', import.meta.url));

interface Case {
  file: string;
  args: string[];
  exit: number;
  output?: Record<string, unknown>;
  code?: string;
  pointers?: string[];
  details?: Record<string, unknown>;
}

let repo: string;
before(async () => {
  repo = await makeRepo();
  await cp(fixtures, join(repo, 'answers'), { recursive: true });
});

const run = (args: string[], stdin?: string) => runCli(['parse', ...args], { trust: true, cwd: repo, stdin });

function jsonError(stderr: string): { code: string; message: string; details: Record<string, unknown> } {
  return (JSON.parse(stderr) as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
}

describe('supervisor parse: fixtures (test/fixtures/output/cases.json)', async () => {
  const cases = JSON.parse(await readFile(join(fixtures, 'cases.json'), 'utf8')) as Case[];
  for (const c of cases) {
    it(`${c.file} ${c.args.join(' ')} → exit ${c.exit}${c.code ? ` ${c.code}` : ''}`, async () => {
      const result = await run([...c.args, '--json', `answers/${c.file}`]);
      assert.equal(result.code, c.exit, result.stderr);
      if (c.exit === 0) {
        assert.equal(result.stderr, '');
        const output = JSON.parse(result.stdout) as Record<string, unknown>;
        for (const [key, value] of Object.entries(c.output ?? {})) assert.deepEqual(output[key], value, key);
        return;
      }
      assert.equal(result.stdout, '', 'nothing on stdout when there is no valid output');
      const error = jsonError(result.stderr);
      assert.equal(error.code, c.code);
      if (c.pointers) assert.deepEqual((error.details.violations as { pointer: string }[]).map((v) => v.pointer).sort(), c.pointers);
      for (const [key, value] of Object.entries(c.details ?? {})) assert.deepEqual(error.details[key], value, key);
    });
  }
});

describe('supervisor parse', () => {
  it('reads stdin when the file is "-" or not given', async () => {
    const answer = '```json\n{"status": "APPROVED", "review_status": "APPROVED"}\n```';
    for (const args of [['--role', 'reviewer', '-'], ['--role', 'reviewer']]) {
      const result = await run(args, answer);
      assert.equal(result.code, 0, result.stderr);
      assert.equal((JSON.parse(result.stdout) as { status: string }).status, 'APPROVED');
    }
  });

  it('prints the error and a hint on stderr without --json, exit 3', async () => {
    const result = await run(['--role', 'reviewer', 'answers/marker-only.txt']);
    assert.equal(result.code, 3);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^error \[PARSE_NO_JSON\]: No ```json block found in the answer\nhint: /);
  });

  it('an unknown role name, a missing file and --role with --schema are usage errors (exit 2)', async () => {
    assert.equal(jsonError((await run(['--role', 'nope', '--json', 'answers/marker-only.txt'])).stderr).code, 'ROLE_NOT_FOUND');
    const missing = await run(['--json', 'answers/none.md']);
    assert.deepEqual([missing.code, jsonError(missing.stderr).code], [2, 'FILE_READ']);
    const both = await run(['--role', 'reviewer', '--schema', 'review', 'answers/marker-only.txt']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /mutually exclusive/);
    assert.equal(jsonError((await run(['--schema', 'nope', '--json', 'answers/marker-only.txt'])).stderr).code, 'OUTPUT_SCHEMA_NOT_FOUND');
    assert.equal(jsonError((await run(['--parser', 'nope', '--json', 'answers/marker-only.txt'])).stderr).code, 'PLUGIN_NOT_FOUND');
  });

  it("validates a role with no schema of its own and an unknown name through generic", async () => {
    const custom = await makeRepo({
      '.supervisor/roles/triage.yaml': 'name: triage\ndescription: Sorts bug reports\ncli: claude\nsystem_prompt: Sort the report.\n',
      'answer.md': '```json\n{"bucket": "ui"}\n```\n',
      'array.md': '```json\n["ui"]\n```\n',
    });
    const ok = await runCli(['parse', '--role', 'triage', 'answer.md'], { trust: true, cwd: custom });
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout), { bucket: 'ui', status: 'UNKNOWN' });
    const array = await runCli(['parse', '--role', 'triage', '--json', 'array.md'], { trust: true, cwd: custom });
    assert.deepEqual([array.code, jsonError(array.stderr).code], [3, 'OUTPUT_INVALID']);
  });

  it("uses a role's own output_schema, parser and legacy setting", async () => {
    const custom = await makeRepo({
      '.supervisor/roles/shipper.yaml': 'name: shipper\ndescription: Ship or hold\ncli: claude\nsystem_prompt: Decide.\noutput_schema: ./shipper-schema.json\n',
      '.supervisor/roles/shipper-schema.json': await readFile(join(fixtures, 'custom-schema.json'), 'utf8'),
      '.supervisor/roles/old-reviewer.yaml': 'name: old-reviewer\nextends: spec-reviewer\ndescription: Accepts free text\nconfig:\n  legacy: true\n',
      'answer.md': await readFile(join(fixtures, 'custom-answer.md'), 'utf8'),
      'legacy.txt': await readFile(join(fixtures, 'spec-reviewer-legacy.txt'), 'utf8'),
    });
    const shipped = await runCli(['parse', '--role', 'shipper', 'answer.md'], { trust: true, cwd: custom });
    assert.equal(shipped.code, 0, shipped.stderr);
    assert.deepEqual(JSON.parse(shipped.stdout), { verdict: 'ship', reasons: [] });
    const legacy = await runCli(['parse', '--role', 'old-reviewer', 'legacy.txt'], { trust: true, cwd: custom });
    assert.equal(legacy.code, 0, legacy.stderr);
    assert.deepEqual(JSON.parse(legacy.stdout).grammar, 'legacy');
    const refused = await runCli(['parse', '--role', 'spec-reviewer', '--json', 'legacy.txt'], { trust: true, cwd: custom });
    assert.equal(jsonError(refused.stderr).code, 'PARSE_UNRECOGNISED');
  });
});

describe('supervisor parse: roles from files, parsers that name their schema', () => {
  it('--role takes a role file, relative to the current folder', async () => {
    const custom = await makeRepo({
      'roles/triage.yaml': 'name: triage\ndescription: Sorts bug reports\ncli: claude\nsystem_prompt: Sort the report.\noutput_schema: ./triage.json\n',
      'roles/triage.json': '{"type": "object", "required": ["bucket"], "properties": {"bucket": {"enum": ["ui", "api"]}}}',
      'answer.md': '```json\n{"bucket": "db"}\n```\n',
    });
    for (const [cwd, arg] of [[custom, './roles/triage.yaml'], [join(custom, 'roles'), 'triage.yaml']] as const) {
      const result = await runCli(['parse', '--role', arg, '--json', join(custom, 'answer.md')], { trust: true, cwd });
      assert.deepEqual([result.code, jsonError(result.stderr).code, jsonError(result.stderr).details.schema], [3, 'OUTPUT_INVALID', 'triage'], arg);
    }
  });

  it("without a role or --schema, a parser's defaultSchema is used (else generic)", async () => {
    const plugin = [
      "import { definePlugin } from 'supervisor/plugin';",
      "export default definePlugin({ kind: 'parser', name: 'bare', defaultSchema: 'review', parse: (text, ctx) => ctx.validate(JSON.parse(text)) });",
    ].join('\n');
    const custom = await makeRepo({ '.supervisor/plugins/bare.ts': plugin, 'answer.json': '{"status": "APPROVED"}' });
    const result = await runCli(['parse', '--parser', 'bare', '--json', 'answer.json'], { trust: true, cwd: custom });
    assert.deepEqual([result.code, jsonError(result.stderr).details.schema], [3, 'review']);
    const generic = await runCli(['parse', '--parser', 'bare', '--schema', 'generic', 'answer.json'], { trust: true, cwd: custom });
    assert.equal(generic.code, 0, generic.stderr);
  });
});

describe('supervisor parse --cli', () => {
  let plugged: string;
  before(async () => {
    plugged = await makeRepo({ '.supervisor/plugins/envelope.ts': await readFile(join(fixtures, 'envelope-adapter.ts'), 'utf8') });
  });
  const envelope = (value: unknown) => JSON.stringify(value);
  const runIn = (args: string[], stdin: string) => runCli(['parse', '--cli', 'envelope', '--json', ...args], { trust: true, cwd: plugged, stdin });

  it("runs the adapter's extract() on the raw output first, then parses its text", async () => {
    const result = await runIn(['--role', 'reviewer'], envelope({ answer: '```json\n{"status": "REJECTED", "review_status": "REJECTED"}\n```' }));
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).status, 'REJECTED');
    const raw = await runCli(['parse', '--role', 'reviewer', '--json'], { trust: true, cwd: plugged, stdin: envelope({ answer: '```json\n{}\n```' }) });
    assert.equal(jsonError(raw.stderr).code, 'PARSE_NO_JSON', 'without --cli the envelope itself is the text');
  });

  it("falls back to the adapter's structured answer, then its older texts, newest first", async () => {
    const structured = await runIn(['--schema', 'llm-chat'], envelope({ answer: 'no json here', structured: { action: 'STUCK', evidence_files: [], summary_for_supervisor: 'Blocked.' } }));
    assert.equal(JSON.parse(structured.stdout).action, 'STUCK');
    const older = await runIn(['--schema', 'llm-chat'], envelope({
      answer: 'Bye.',
      older: ['```json\n{"action": "RETRY", "evidence_files": ["a"], "summary_for_supervisor": "Try again."}\n```', '```json\n{"action": "COMPLETED"}\n```'],
    }));
    assert.equal(JSON.parse(older.stdout).action, 'RETRY');
    const none = await runIn(['--schema', 'llm-chat'], envelope({ answer: 'Bye.', older: ['still nothing'] }));
    assert.deepEqual([none.code, jsonError(none.stderr).code], [3, 'PARSE_NO_JSON']);
    const empty = await runIn(['--schema', 'llm-chat'], envelope({}));
    assert.deepEqual([empty.code, jsonError(empty.stderr).code], [3, 'PARSE_NO_JSON']);
  });

  it("names an invalid structured answer's violations rather than the text's missing JSON, as run does", async () => {
    const result = await runIn(['--schema', 'llm-chat'], envelope({ answer: 'no json here', structured: { action: 'BAD' } }));
    assert.deepEqual([result.code, jsonError(result.stderr).code], [3, 'OUTPUT_INVALID']);
  });

  it("hands extract() the request a run would: the role's extensions, the schema (as a file) only to CLIs that take one", async () => {
    // The probe's extract() answers with what it was given.
    const probe = (name: string, accepts: boolean) => [
      "import { existsSync, readFileSync } from 'node:fs';",
      "import { definePlugin, emptyMetrics } from 'supervisor/plugin';",
      `export default definePlugin({ kind: 'adapter', name: '${name}', bin: '${name}-cli', acceptsOutputSchema: ${accepts},`,
      '  command: () => ({ args: [] }),',
      '  extract(_result, request) {',
      '    const file = request.outputSchema?.file;',
      "    const seen = { status: 'OK', extensions: request.role.extensions, schema: request.outputSchema?.name ?? null,",
      "      fileHoldsSchema: file ? existsSync(file) && JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))) === JSON.stringify(request.outputSchema.schema) : null };",
      "    return { text: '```json\\n' + JSON.stringify(seen) + '\\n```', metrics: emptyMetrics() };",
      '  },',
      '});',
    ].join('\n');
    const custom = await makeRepo({
      '.supervisor/plugins/probe.ts': probe('probe', true),
      '.supervisor/plugins/blind.ts': probe('blind', false),
      '.supervisor/roles/prober.yaml': 'name: prober\ndescription: Probes\ncli: probe\nsystem_prompt: Probe.\nx-model: tiny\n',
    });
    const run = async (cli: string) => {
      const result = await runCli(['parse', '--cli', cli, '--role', 'prober', '-'], { trust: true, cwd: custom, stdin: 'raw' });
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };
    assert.deepEqual(await run('probe'), { status: 'OK', extensions: { 'x-model': 'tiny' }, schema: 'generic', fileHoldsSchema: true });
    assert.deepEqual(await run('blind'), { status: 'OK', extensions: { 'x-model': 'tiny' }, schema: null, fileHoldsSchema: null });
  });

  it('a failure the envelope reports is CLI_FAILED (exit 4); a crash in extract() names the adapter', async () => {
    const failed = await runIn(['--role', 'reviewer'], envelope({ error: 'HTTP 401 from the model API' }));
    assert.equal(failed.code, 4);
    assert.deepEqual(jsonError(failed.stderr).details.failure, { class: 'api_error', detail: 'HTTP 401 from the model API' });
    const crashed = await runIn(['--role', 'reviewer'], 'not json');
    assert.equal(crashed.code, 2);
    assert.deepEqual(jsonError(crashed.stderr).details, { plugin: 'envelope', hook: 'extract' });
  });

  it("reads the real CLIs' captured output through the built-in adapters", async () => {
    for (const [cli, capture] of [['claude', 'json'], ['claude', 'stream-json'], ['codex', 'exec-json-ok'], ['gemini', 'json'], ['gemini', 'stream-json'], ['cline', 'json-ok']]) {
      const result = await runCli(['parse', '--cli', cli!, '--role', 'implementer', join(captures, cli!, `${capture}.stdout`)], { trust: true, cwd: repo });
      assert.equal(result.code, 0, `${cli} ${capture}: ${result.stderr}`);
      assert.deepEqual(JSON.parse(result.stdout), {
        status: 'SUCCESS', action_taken: 'x', files_created: [], files_modified: [], tests_written: [], blockers: [], next_step: null,
      });
    }
  });
});

/**
 * Every built-in output schema, after the codex adapter's transformation, keeps OpenAI's
 * strict structured-output rules: every object closed (`additionalProperties: false`), every
 * property required (optional ones nullable), no free-form maps, no refused keywords.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { withoutExtensions } from '../../../core/output/verdict.ts';
import codex from '../../../plugins/adapters/codex.ts';
import { context, request } from './helpers.ts';

const SCHEMAS = join(import.meta.dirname, '..', '..', '..', 'schemas');
/** Not output schemas: role and workflow files. */
const NOT_OUTPUT = new Set(['role.schema.json', 'workflow.schema.json']);
const REFUSED = ['default', 'examples', '$schema', 'minItems', 'maxItems', 'uniqueItems', 'minLength', 'maxLength', 'format', 'patternProperties'];

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every rule strict mode enforces that the schema breaks, with the JSON pointer of the node. */
function strictViolations(node: unknown, at = ''): string[] {
  if (!isNode(node)) return [];
  const out: string[] = [];
  for (const key of REFUSED) if (key in node) out.push(`${at}: keyword ${key}`);
  const type = node.type;
  if (type === 'object' || (Array.isArray(type) && type.includes('object')) || node.properties !== undefined) {
    if (!isNode(node.properties)) out.push(`${at}: an object without properties (a free-form map)`);
    if (node.additionalProperties !== false) out.push(`${at}: additionalProperties is not false`);
    const required = Array.isArray(node.required) ? [...(node.required as string[])].sort() : [];
    if (isNode(node.properties) && JSON.stringify(required) !== JSON.stringify(Object.keys(node.properties).sort())) out.push(`${at}: not every property is required`);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      if (isNode(value)) for (const [name, sub] of Object.entries(value)) out.push(...strictViolations(sub, `${at}/${key}/${name}`));
    } else if (key === 'items') out.push(...strictViolations(value, `${at}/items`));
    else if (Array.isArray(value) && ['anyOf', 'oneOf', 'allOf'].includes(key)) value.forEach((sub, i) => out.push(...strictViolations(sub, `${at}/${key}/${i}`)));
  }
  return out;
}

async function handedToCodex(schema: Node): Promise<Node | undefined> {
  const scratch = await mkdtemp(join(tmpdir(), 'sv-codex-strict-'));
  try {
    const spec = await codex.command(request({ scratchDir: scratch, outputSchema: { name: 'x', schema, file: join(scratch, 'output-schema.json') } }), context());
    const at = spec.args.indexOf('--output-schema');
    return at < 0 ? undefined : (JSON.parse(await readFile(spec.args[at + 1]!, 'utf8')) as Node);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

describe('codex: the strict schema of every built-in output schema', async () => {
  const files = (await readdir(SCHEMAS)).filter((f) => f.endsWith('.json') && !NOT_OUTPUT.has(f)).sort();

  it('finds the built-in output schemas', () => assert.ok(files.length >= 6, files.join(', ')));

  for (const file of files) {
    it(`${file} keeps strict mode's rules, or is not handed over`, async () => {
      const schema = withoutExtensions(JSON.parse(await readFile(join(SCHEMAS, file), 'utf8')) as Node);
      const strict = await handedToCodex(schema);
      // Only an open root (generic: any object) cannot be said in strict mode: the prompt's format stays the contract.
      if (file === 'generic.json') return assert.equal(strict, undefined, 'the open generic schema is not handed to codex');
      assert.ok(strict, `${file} is handed to codex`);
      assert.deepEqual(strictViolations(strict), []);
    });
  }

  it("v2's parser-set extra_headers map is left out; llm-chat's optional field becomes nullable", async () => {
    const v2 = (await handedToCodex(withoutExtensions(JSON.parse(await readFile(join(SCHEMAS, 'v2-result.json'), 'utf8')) as Node)))!;
    assert.ok(!('extra_headers' in (v2.properties as Node)));
    const chat = (await handedToCodex(withoutExtensions(JSON.parse(await readFile(join(SCHEMAS, 'llm-chat.json'), 'utf8')) as Node)))!;
    assert.deepEqual((chat.properties as Record<string, Node>).job_manifest_url!.type, ['string', 'null']);
  });
});

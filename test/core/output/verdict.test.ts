import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mapVerdict } from '../../../core/run/status-map.ts';
import { loadOutputSchema } from '../../../core/output/schemas.ts';
import { resolveVerdict, withoutExtensions } from '../../../core/output/verdict.ts';
import { createRole } from '../../../core/roles/role.ts';

const role = (config: Record<string, unknown> = {}) => createRole({ name: 'r', description: 'r', config });
const schemaOf = (schema: Record<string, unknown>) => ({ schema, file: '/x/s.json' });

describe('resolveVerdict', () => {
  it('llm-chat declares action with its own words', () => {
    const verdict = resolveVerdict(loadOutputSchema('llm-chat', { baseDir: '/' }), role());
    assert.equal(verdict.field, 'action');
    assert.equal(mapVerdict({ action: 'COMPLETED' }, verdict).status, 'pass');
    assert.equal(mapVerdict({ action: 'RETRY' }, verdict).status, 'gaps');
    assert.equal(mapVerdict({ action: 'STUCK' }, verdict).status, 'error');
    // a status field means nothing to a role whose verdict is action
    assert.equal(mapVerdict({ status: 'SUCCESS' }, verdict).status, 'gaps');
  });

  it('defaults to status; a string x-verdict or config.verdict_field names another field', () => {
    assert.equal(resolveVerdict(schemaOf({ type: 'object' }), role()).field, 'status');
    assert.equal(resolveVerdict(schemaOf({ 'x-verdict': 'outcome' }), role()).field, 'outcome');
    const custom = resolveVerdict(schemaOf({ 'x-verdict': { field: 'outcome', values: { yes: 'pass' } } }), role({ verdict_field: 'outcome' }));
    assert.equal(mapVerdict({ outcome: 'Yes' }, custom).status, 'pass');
    // the role's field wins; the schema's words do not follow it to another field
    const other = resolveVerdict(schemaOf({ 'x-verdict': { field: 'outcome', values: { yes: 'pass' } } }), role({ verdict_field: 'state' }));
    assert.equal(other.field, 'state');
    assert.equal(mapVerdict({ state: 'yes' }, other).status, 'gaps');
  });

  it('refuses a malformed x-verdict and a field a closed schema cannot hold', () => {
    assert.throws(() => resolveVerdict(schemaOf({ 'x-verdict': { field: 'a', values: { X: 'win' } } }), role()), { code: 'OUTPUT_SCHEMA_INVALID' });
    assert.throws(() => resolveVerdict(schemaOf({ 'x-verdict': 3 }), role()), { code: 'OUTPUT_SCHEMA_INVALID' });
    const closed = schemaOf({ additionalProperties: false, properties: { a: {} } });
    assert.throws(() => resolveVerdict(closed, role({ verdict_field: 'b' })), { code: 'VERDICT_FIELD_INVALID' });
    assert.throws(() => resolveVerdict(closed, role()), { code: 'VERDICT_FIELD_INVALID' });
  });

  it('hands CLIs the schema without supervisor keywords', () => {
    assert.deepEqual(withoutExtensions({ type: 'object', 'x-verdict': 'a' }), { type: 'object' });
  });
});

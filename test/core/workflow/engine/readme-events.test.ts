/** The README's event table names every kind the engine writes and exactly the fields of each kind's schema. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EVENT_KINDS, eventFields, type EventKind } from '../../../../core/workflow/engine/events.ts';

const README = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'README.md'), 'utf8');

/** The table's rows: kind → the backticked names of its fields cell, notes in parentheses and "and ..." tails left out. */
function readmeTable(): Map<string, string[]> {
  const start = README.indexOf('| kind | fields |');
  assert.ok(start >= 0, 'README has the event table');
  const rows = new Map<string, string[]>();
  for (const line of README.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [, kindCell = '', fieldsCell = ''] = line.split(/(?<!\\)\|/).map((c) => c.trim());
    const kind = kindCell.replace(/`/g, '');
    const bare = fieldsCell.replace(/\([^)]*\)/g, '').replace(/, and .*$/, '');
    rows.set(kind, [...bare.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
  }
  return rows;
}

describe('README: the event table', () => {
  it('lists every kind the engine writes, and no other', () => {
    assert.deepEqual([...readmeTable().keys()].sort(), [...EVENT_KINDS].sort());
  });

  it('lists exactly the fields of each kind\'s schema', () => {
    for (const [kind, fields] of readmeTable()) {
      assert.deepEqual(fields.sort(), eventFields(kind as EventKind).map((f) => f.name).sort(), `README's row for ${kind}`);
    }
  });
});

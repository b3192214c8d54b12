/** Jinja2's trim_blocks / lstrip_blocks, as the prompt templates rely on them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRenderer } from '../../../core/prompt/render.ts';
import type { TemplateSource } from '../../../core/prompt/templates.ts';

function render(content: string, data: Record<string, unknown> = {}): string {
  const source: TemplateSource = { name: 't', content, file: 't.eta', origin: 'project' };
  return createRenderer(new Map([['t', source]])).render('t', data);
}

describe('block tag trimming', () => {
  it('a line holding only a control tag leaves nothing behind', () => {
    assert.equal(render('a\n<% if (true) { %>\nb\n<% } %>\nc\n'), 'a\nb\nc\n');
    assert.equal(render('a\n  <% for (const x of [1, 2]) { %>\n  - <%= x %>\n  <% } %>\nz'), 'a\n  - 1\n  - 2\nz');
  });

  it('interpolations keep the newline after them', () => {
    assert.equal(render('<%= it.a %>\n<%= it.b %>\n', { a: 1, b: 2 }), '1\n2\n');
  });

  it('indentation before a control tag that does not start a line stays', () => {
    assert.equal(render('x  <% if (true) { %>y<% } %>'), 'x  y');
  });

  it('keeps backslashes, quotes and CRLF text intact', () => {
    assert.equal(render("a\\n 'q' \"d\" \\\\\r\n<% if (true) { %>\r\nb<% } %>"), "a\\n 'q' \"d\" \\\\\nb");
  });

  it('a tag opening a callback counts as a control tag', () => {
    assert.equal(render("<%~ block('x', () => { %>\ninside\n<% }) %>\nafter"), 'inside\nafter');
  });
});

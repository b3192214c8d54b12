import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderFileList } from '../../../core/context/target-files.ts';
import { renderFiles } from '../../../core/files/file-section.ts';
import { joinSections, readSections } from '../../../core/context/part-sections.ts';

const FILES = [
  { path: 'a.md', content: '# A\n\n### b.ts\n\n```\nnot a section\n```\n' },
  { path: 'b.ts', content: '' },
  { path: 'c&d.xml', content: '<file path="x">\n</file>\n</files>\nend' },
  { path: 'e.ts', content: 'const e = 1;\n' },
];

describe('readSections', () => {
  it('reads markdown and xml parts back file by file, byte for byte', () => {
    for (const style of ['markdown', 'xml'] as const) {
      const text = renderFiles(FILES, style, 'Files', 'files');
      const read = readSections(text, FILES.map((f) => f.path));
      assert.ok(read, style);
      // xml: a file's content cannot close its element (file-section.ts writes such a `<` as `&lt;`)
      const shown = (content: string) => (style === 'xml' ? content.replace(/<(?=\/?\s*(?:file|files)(?![\w-]))/gi, '&lt;') : content);
      assert.deepEqual(read.sections.map((s) => s.content), FILES.map((f) => shown(f.content)));
      assert.equal(joinSections(read, read.sections), text);
      // a subset is what the renderer makes of that subset
      assert.equal(joinSections(read, [read.sections[0]!, read.sections[3]!]), renderFiles([FILES[0]!, FILES[3]!], style, 'Files', 'files'));
    }
  });

  it('reads marker sections, and refuses text in another shape', () => {
    const part = renderFileList([
      { path: 'big.bin', read: { kind: 'tooLarge' } },
      { path: 'ok.ts', read: { kind: 'text', content: 'ok\n', bytes: 3 } },
    ]);
    const read = readSections(part.content, part.files)!;
    assert.deepEqual(read.sections.map((s) => s.content), [null, 'ok\n']);
    assert.equal(readSections('diff --git a/x b/x\n', ['x']), null);
    assert.equal(readSections(renderFiles(FILES, 'markdown', 'Files', 'files'), ['a.md', 'e.ts']), null);
  });
});

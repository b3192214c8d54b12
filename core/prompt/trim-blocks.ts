/**
 * Jinja2's trim_blocks + lstrip_blocks for Eta: a line that holds only a control tag
 * (`<% if (...) { %>`, `<% }) %>`, or a tag that opens a callback such as
 * `<%~ block('content', () => { %>`) leaves no trace in the output, while interpolations keep
 * the newline after them. Prompt templates stay readable without `-%>` everywhere.
 *
 * Eta's AST holds text already escaped for a JS string literal (`\\`, `\'`, `\n`), so text is
 * decoded, trimmed and encoded again.
 */
type AstNode = string | { t: string; val: string; lineNo?: number };

function decode(text: string): string {
  return text.replace(/\\([\s\S])/g, (_m, c: string) => (c === 'n' ? '\n' : c));
}

function encode(text: string): string {
  return text.replace(/\\|'/g, '\\$&').replace(/\r\n|\n|\r/g, '\\n');
}

function isControl(node: AstNode | undefined): boolean {
  if (node === undefined || typeof node === 'string') return false;
  if (node.t === 'e') return true;
  return /\{\s*$/.test(node.val);
}

/** Eta `processAST` plugin hook. */
export function trimBlockTags(ast: AstNode[]): AstNode[] {
  const out: AstNode[] = [];
  for (let i = 0; i < ast.length; i++) {
    const node = ast[i];
    if (typeof node !== 'string') {
      out.push(node as AstNode);
      continue;
    }
    let text = decode(node);
    let atLineStart = i === 0;
    // trim_blocks: the first newline after a control tag goes.
    if (isControl(ast[i - 1])) {
      const trimmed = text.replace(/^[ \t]*\r?\n/, '');
      atLineStart = trimmed !== text;
      text = trimmed;
    }
    // lstrip_blocks: indentation before a control tag that starts its line goes.
    if (isControl(ast[i + 1])) {
      const indent = /(^|\n)[ \t]+$/.exec(text);
      if (indent && (indent[1] === '\n' || atLineStart)) text = text.slice(0, indent.index + indent[1]!.length);
    }
    if (text !== '') out.push(encode(text));
  }
  return out;
}

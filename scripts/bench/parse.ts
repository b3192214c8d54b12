/**
 * Benchmark: parse time of the two built-in parsers (fenced-json, v2-headers) from 1 MiB to
 * 16 MiB of input, realistic and hostile. Linear time shows as a flat ms/MiB column and a
 * 16 MiB / 1 MiB ratio near 16. Run: node --import tsx scripts/bench/parse.ts [--runs N]
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isSupervisorError } from '../../core/errors.ts';
import { parseOutput } from '../../core/output/parse-output.ts';
import { loadOutputSchema } from '../../core/output/schemas.ts';
import { createRegistry } from '../../core/registry.ts';
import { parsers } from '../../plugins/parsers/index.ts';

const MiB = 1024 * 1024;
const SIZES = [1, 2, 4, 8, 16];
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;

// A full GC before each timed run, so one run's garbage is not billed to the next.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const registry = createRegistry(parsers.map(({ file, plugin }) => ({ plugin, source: file, layer: 'builtin' })));
const generic = loadOutputSchema('generic', { baseDir: '/' });
const v2 = loadOutputSchema('v2-result', { baseDir: '/' });

/** Repeats a unit up to the size, then appends the tail. */
function fill(unit: string, bytes: number, tail = ''): string {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes - tail.length) + tail;
}

const ANSWER = '\n```json\n{"status": "SUCCESS", "action_taken": "done"}\n```\n';
const PROSE = 'The change touches `src/auth.ts`; see below.\n```ts\nconst x = 1;\n```\n\n';
const ISSUES = '- Missing: progress reporting — src/recovery.ts:45\n';

interface Shape {
  name: string;
  parser: string;
  make: (bytes: number) => string;
}

const SHAPES: Shape[] = [
  { name: 'prose + code blocks, answer at the end', parser: 'fenced-json', make: (b) => fill(PROSE, b, ANSWER) },
  { name: 'one big ```json answer (valid)', parser: 'fenced-json', make: (b) => `\`\`\`json\n{"status": "OK", "items": [${'"item-0123456789",'.repeat(Math.floor((b - 48) / 18))}"x"]}\n\`\`\`` },
  // Reference: V8's own JSON.parse on the same block; its GC cost grows faster than linear
  // at 16 MiB (a million strings), which the row above inherits.
  { name: '  reference: JSON.parse of that block alone', parser: 'JSON.parse', make: (b) => `{"status": "OK", "items": [${'"item-0123456789",'.repeat(Math.floor((b - 48) / 18))}"x"]}` },
  { name: 'one big ```json answer, error at the end', parser: 'fenced-json', make: (b) => `\`\`\`json\n{"status": "OK", "items": [${'"item-0123456789",'.repeat(Math.floor((b - 48) / 18))}]}\n\`\`\`` },
  { name: 'hostile: unclosed fences', parser: 'fenced-json', make: (b) => fill('```json\n{\n', b) },
  { name: 'hostile: backtick and space runs', parser: 'fenced-json', make: (b) => fill(`${'`'.repeat(3000)}\n${' '.repeat(3000)}\n\`\`\` \`\`\`\n`, b) },
  { name: 'v2 headers + long body', parser: 'v2-headers', make: (b) => fill(ISSUES, b, '').replace(/^/, 'role: spec-reviewer\ntask_id: t-1\nstatus: gaps\nissues: a; b\n\n') },
  { name: 'legacy free text, gaps', parser: 'v2-headers', make: (b) => `Review FAILED.\nIssues found:\n${fill(ISSUES, b - 40)}` },
];

function timeOnce(shape: Shape, text: string): number {
  gc();
  const start = process.hrtime.bigint();
  if (shape.parser === 'JSON.parse') {
    JSON.parse(text);
    return Number(process.hrtime.bigint() - start) / 1e6;
  }
  try {
    parseOutput(text, {
      registry,
      parser: shape.parser,
      schema: shape.parser === 'v2-headers' ? v2 : generic,
      role: { name: 'spec-reviewer', baseRole: null },
      legacy: true,
    });
  } catch (error) {
    if (!isSupervisorError(error)) throw error;
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

console.log(`node ${process.version}, best of ${RUNS} runs per cell (ms; the minimum is the least disturbed by other load); last column: time(16 MiB) / time(1 MiB), 16 = linear\n`);
console.log(`${'input'.padEnd(42)}${SIZES.map((s) => `${s} MiB`.padStart(10)).join('')}${'ms/MiB'.padStart(16)}${'16/1'.padStart(8)}`);
for (const shape of SHAPES) {
  const times = SIZES.map((size) => {
    // Flatten the string as a model's output would be (repeat() builds a rope).
    const text = JSON.parse(JSON.stringify(shape.make(size * MiB))) as string;
    timeOnce(shape, text); // warm-up
    return Math.min(...Array.from({ length: RUNS }, () => timeOnce(shape, text)));
  });
  const perMiB = times.map((t, i) => t / SIZES[i]!);
  const row = times.map((t) => t.toFixed(1).padStart(10)).join('');
  const spread = `${Math.min(...perMiB).toFixed(1)}–${Math.max(...perMiB).toFixed(1)}`;
  console.log(`${shape.name.padEnd(42)}${row}${spread.padStart(16)}${(times[4]! / times[0]!).toFixed(1).padStart(8)}`);
}

#!/usr/bin/env -S node --import tsx
// Collects the estimate's fitting data from a repository: for each file the glob packer packs,
// its section as packed (xml), the feature counts of core/context/estimate.ts and the exact
// o200k count. Prints CSV (no file content: the path, bytes, exact count and features).
//
//   node --import tsx scripts/estimate/collect.mts <repo> <name> > scripts/estimate/data/<name>.csv
import { createPathGuard } from '../../core/context/path-safety.ts';
import { createSafeReader } from '../../core/context/safe-read.ts';
import { NO_SECRET_SCAN } from '../../core/secrets/secret-scan.ts';
import { estimateFeatures, ESTIMATE_FEATURES } from '../../core/context/estimate.ts';
import { renderFiles } from '../../core/files/file-section.ts';
import { estimateTokens, loadTokenizer } from '../../core/context/tokens.ts';
import { selectFiles } from '../../plugins/packers/glob.ts';

const [repo, name] = process.argv.slice(2);
if (!repo || !name) throw new Error('usage: collect.mts <repo> <name>');
await loadTokenizer('o200k');
const paths = await selectFiles({ repoRoot: repo, include: ['**/*'], exclude: [], targets: [], context: {}, style: 'xml' });
const report = await createSafeReader(createPathGuard(repo), { scanner: NO_SECRET_SCAN }).readFiles(paths);
const csv = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
console.log(['repo', 'path', 'bytes', 'o200k', ...ESTIMATE_FEATURES].join(','));
for (const file of report.files) {
  const section = renderFiles([file], 'xml', 'Files', 'files');
  const row = [name, csv(file.path), Buffer.byteLength(section), estimateTokens(section, 'o200k'), ...estimateFeatures(section)];
  console.log(row.join(','));
}

// o200k's rank table as the binary's assets (O200K_TABLE_ASSETS in core/context/o200k-ranks.ts):
// the binary copies it out of them instead of loading the ranks' chunk and building it (~35 ms
// of every exact count from a cold cache). Built by the project's own code (through tsx), then
// read back as the binary reads it and every token looked up: the build fails unless each gives
// its rank. The slots are in this machine's byte order: little-endian, as on every target.
import { endianness } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const load = (root, file) => tsImport(pathToFileURL(join(root, 'core', 'context', file)).href, import.meta.url);

/** Writes the table's two files into `work`; returns the assets as pack.cjs takes them (name=file). */
export async function o200kTableAssets(root, work) {
  if (endianness() !== 'LE') throw new Error('o200k table: the build machine must be little-endian, as every target is');
  const { loadO200kRanks, O200K_TABLE_ASSETS } = await load(root, 'o200k-ranks.ts');
  const { buildRankTable, tableBytes, tableFromBytes, valueOf } = await load(root, 'o200k-rank-table.ts');
  const ranks = await loadO200kRanks();
  const { slots, keys } = tableBytes(buildRankTable(ranks));
  const table = tableFromBytes(slots, keys);
  if (!table) throw new Error('o200k table: the built table does not read back');
  for (let rank = 0, start = 0; rank < ranks.lengths.length; start += ranks.lengths[rank], rank++) {
    const token = Buffer.from(ranks.bytes.subarray(start, start + ranks.lengths[rank])).toString('latin1');
    if (valueOf(table, token, 0, token.length) !== rank) throw new Error(`o200k table: token ${rank} does not give its rank`);
  }
  const files = { [O200K_TABLE_ASSETS.slots]: slots, [O200K_TABLE_ASSETS.keys]: keys };
  return Object.entries(files).map(([name, bytes]) => {
    const file = join(work, name);
    writeFileSync(file, bytes);
    return `${name}=${file}`;
  });
}

// yargs looks for a package.json above the executable to guess a version at construction (the
// CLI sets its own). In the binary there is no package.json of ours to find; skip the walk.
export default function escalade() {
  return undefined;
}

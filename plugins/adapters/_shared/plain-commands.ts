/**
 * The allowed commands an adapter writes into its CLI's permission rules: plain words only
 * (the core refuses anything else before a run, SECURITY.md "Allowed commands"; this keeps a
 * value that slipped past, e.g. `x:*),Bash,Bash(y`, from becoming a rule of its own).
 */
const PLAIN = /^(?!-)[A-Za-z0-9._/@%+=:-]+( [A-Za-z0-9._/@%+=:-]+)*$/;

export function plainCommands(commands: readonly string[]): string[] {
  return commands.filter((command) => PLAIN.test(command));
}

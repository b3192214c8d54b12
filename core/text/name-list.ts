/** The first `shown` names joined with commas, and how many more there are ("a, b, and 3 more"). */
export function nameList(names: readonly string[], shown: number): string {
  const listed = names.slice(0, shown).join(', ');
  return names.length > shown ? `${listed}, and ${names.length - shown} more` : listed;
}

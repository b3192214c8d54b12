/**
 * `--json` output uses snake_case keys (DESIGN.md: scripts read them). Internal objects that
 * are camelCase (settings, pack stats) pass through this on their way out. Only camelCase keys
 * change: UPPER_CASE environment names, kebab-case and x- keys stay as they are.
 */
const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

export function snakeKey(key: string): string {
  return CAMEL.test(key) ? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : key;
}

/** A copy of plain data with every camelCase object key in snake_case, at any depth. */
export function snakeKeys<T>(value: T): unknown {
  if (Array.isArray(value)) return value.map((item) => snakeKeys(item));
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [snakeKey(key), snakeKeys(item)]));
}

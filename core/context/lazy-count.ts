/**
 * A token count taken when it is first read, then kept: packing results carry counts that most
 * callers never look at (`pack` without --stats), and an exact count of a large pack is the
 * slowest thing packing does. The property is an ordinary enumerable one to its readers
 * (JSON.stringify and spreading read it, and count then).
 */
export function lazyCount<T extends object, K extends string = 'tokens'>(target: T, count: () => number, key: K = 'tokens' as K): T & Record<K, number> {
  let value: number | undefined;
  return Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => (value ??= count()),
  }) as T & Record<K, number>;
}

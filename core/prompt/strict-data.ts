/**
 * Strict template data: Eta, like plain JavaScript, reads a missing key as `undefined` and
 * prints "undefined" into the prompt. Jinja2's StrictUndefined made that an error; this module
 * restores the rule by handing templates a Proxy over the data that throws on unknown keys.
 * The renderer turns the throw into a TEMPLATE_UNDEFINED_VARIABLE naming template and line.
 */

/** Thrown by the proxy; the renderer adds the template name and line. */
export class UndefinedVariable extends Error {
  readonly variable: string;
  constructor(variable: string) {
    super(`undefined variable "${variable}"`);
    this.name = 'UndefinedVariable';
    this.variable = variable;
  }
}

/**
 * Keys that may be absent without an error: Eta's own layout/block plumbing reads `it.__blocks`
 * and `it.body`, and JSON.stringify / promise checks probe `toJSON` / `then`.
 */
const TOLERATED = new Set(['__blocks', 'body', 'toJSON', 'then']);

const proxies = new WeakSet<object>();

/**
 * Keys that lead from data to the Function constructor (`it.constructor.constructor("...")()`)
 * or swap a prototype: never data, so reading one is an unknown variable. This closes the way
 * in through `it`; a template is still JavaScript (Eta compiles it), which is why only built-in
 * templates and those of a trusted repository render at all (core/trust).
 */
const FORBIDDEN = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

function isPlain(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Wraps plain objects and arrays (recursively, lazily) so that reading a key that is not there
 * throws UndefinedVariable with the dotted path ("role.system_promt"). Other values are returned
 * as they are. The proxy sits on a shallow copy, so frozen data cannot trip Proxy invariants.
 */
export function strictData<T>(value: T, path = 'it'): T {
  if (!isPlain(value) || proxies.has(value)) return value;
  // Objects are copied onto a null prototype: nothing inherited (constructor, toString, ...) is reachable.
  const copy: Record<string | symbol, unknown> = Array.isArray(value) ? [...value] as unknown as Record<string, unknown> : Object.assign(Object.create(null) as Record<string, unknown>, value);
  const cache = new Map<string, unknown>();
  const proxy = new Proxy(copy, {
    get(target, key, receiver) {
      if (typeof key === 'symbol') return Reflect.get(target, key, receiver);
      if (FORBIDDEN.has(key) && !Object.hasOwn(target, key)) {
        // Array methods read `constructor` themselves (map, filter): undefined makes them use Array.
        if (Array.isArray(target)) return undefined;
        throw new UndefinedVariable(`${path}.${key}`);
      }
      if (!(key in target)) {
        if (TOLERATED.has(key)) return undefined;
        throw new UndefinedVariable(Array.isArray(target) ? `${path}[${key}]` : `${path}.${key}`);
      }
      const raw = Reflect.get(target, key, receiver);
      if (!Object.hasOwn(target, key) || !isPlain(raw)) return raw;
      let wrapped = cache.get(key);
      if (wrapped === undefined) {
        wrapped = strictData(raw, Array.isArray(target) ? `${path}[${key}]` : `${path}.${key}`);
        cache.set(key, wrapped);
      }
      return wrapped;
    },
    set(target, key, value, receiver) {
      if (typeof key === 'string') cache.delete(key);
      return Reflect.set(target, key, value, receiver);
    },
  });
  proxies.add(proxy);
  return proxy as T;
}

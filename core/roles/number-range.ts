/** A numeric range as JSON Schema states one (minimum, exclusiveMinimum, maximum, integer). */

export interface NumberRange {
  /** Whole numbers only. */
  integer: boolean;
  /** Smallest allowed value (inclusive). */
  min?: number;
  /** The value must be greater than this. */
  exclusiveMin?: number;
  max?: number;
}

/** Whether `value` lies in the range. */
export function inRange(value: number, range: NumberRange): boolean {
  if (!Number.isFinite(value) || (range.integer && !Number.isInteger(value))) return false;
  if (range.min !== undefined && value < range.min) return false;
  if (range.exclusiveMin !== undefined && value <= range.exclusiveMin) return false;
  return range.max === undefined || value <= range.max;
}

/** "a whole number >= 0 and <= 10", for messages. */
export function describeRange(range: NumberRange): string {
  const bounds = [
    range.min !== undefined ? `>= ${range.min}` : range.exclusiveMin !== undefined ? `> ${range.exclusiveMin}` : null,
    range.max !== undefined ? `<= ${range.max}` : null,
  ].filter(Boolean);
  return `${range.integer ? 'a whole number' : 'a number'}${bounds.length ? ` ${bounds.join(' and ')}` : ''}`;
}

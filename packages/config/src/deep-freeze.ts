/**
 * Config is read once and passed down; freezing it all the way makes an accidental write by
 * one component (which would change the behaviour of every other) throw instead.
 */
export function deepFreeze<T>(value: T): Readonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

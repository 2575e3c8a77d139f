/**
 * Facts about plain objects that the walks over client input decide on, each stated once.
 *
 * @module
 * @internal
 */

/**
 * Tells whether `for...in` over a plain object sees only its own keys: nothing enumerable was added to
 * `Object.prototype` (by a polluted prototype or a careless library). The fast walks use `for...in` only then.
 *
 * @internal
 */
export function prototypeIsClean(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

/**
 * Tells whether `proto` is the prototype of a plain object: `Object.prototype`, or `null` for
 * `Object.create(null)`.
 *
 * @internal
 */
export function isPlainPrototype(proto: unknown): boolean {
  return proto === Object.prototype || proto === null;
}

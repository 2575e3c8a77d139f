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

/**
 * Tells whether `proto` looks like the `Object.prototype` of another realm (a `vm` context, an iframe): an
 * object whose own prototype is null (this realm's `Object.prototype` passes too; callers ask after
 * {@link isPlainPrototype}). A plain object made there is a JSON object too, but its prototype may have
 * enumerable members that {@link prototypeIsClean} did not see.
 *
 * @internal
 */
export function isOtherRealmPlainPrototype(proto: object | null): boolean {
  return proto !== null && Object.getPrototypeOf(proto) === null;
}

/**
 * Tells whether `proto` is the prototype of a plain object of any realm: {@link isPlainPrototype}, or
 * {@link isOtherRealmPlainPrototype}.
 *
 * @internal
 */
export function isPlainPrototypeAnyRealm(proto: object | null): boolean {
  return isPlainPrototype(proto) || isOtherRealmPlainPrototype(proto);
}

/**
 * Well-formed UTF-16. A protobuf `string` holds valid UTF-8, so a JavaScript string with a lone surrogate
 * cannot be represented and is rejected rather than silently altered.
 *
 * @internal
 * @module
 */

const native = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function";

/**
 * Tells whether `s` has no lone surrogate. Uses `String.prototype.isWellFormed` (ES2024) where the platform has
 * it, called as a method: V8 runs that about a fifth faster than the same builtin through `Function.prototype.call`.
 */
export const isWellFormed: (s: string) => boolean = native
  ? (s) => (s as string & { isWellFormed(): boolean }).isWellFormed()
  : (s) => {
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c < 0xd800 || c > 0xdfff) continue;
        if (c > 0xdbff) return false;
        const n = s.charCodeAt(i + 1);
        if (!(n >= 0xdc00 && n <= 0xdfff)) return false;
        i++;
      }
      return true;
    };

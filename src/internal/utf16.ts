/**
 * Well-formed UTF-16. A protobuf `string` holds valid UTF-8, so a JavaScript string with a lone surrogate
 * cannot be represented and is rejected rather than silently altered.
 *
 * @internal
 * @module
 */

const native = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;

/** Tells whether `s` has no lone surrogate. Uses `String.prototype.isWellFormed` where the platform has it. */
export const isWellFormed: (s: string) => boolean =
  native !== undefined
    ? (s) => native.call(s)
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

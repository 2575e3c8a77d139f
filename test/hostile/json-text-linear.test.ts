// The JSON text parser in linear time: 4x the text at the rate of 1x, in the worst shapes we know, against
// JSON.parse's own growth on the same texts (CPU time, see ../cost.ts). Moved out of
// ../property/json-text.prop.ts so that scripts/runtimes.mjs can run it once (its `onceOnly` list: a bound of
// our own algorithm, about 15 s) while the parser's properties run under every Node.
import { describe, expect, it } from "vitest";
import { jsonTextMaxDepthDefault, parseJsonText, parseJsonTextStrict } from "../../src/codec/json-text.js";
import { leastOf, perUnit } from "../cost.js";
import { repeatToSize, wideObject } from "./texts.js";

describe("linear time", () => {
  /**
   * Texts of about `size` code units in the worst shapes we know, each valid JSON, read at 250 KB and 1 MB (the
   * 1 MB text of nested arrays holds 500,000 arrays). They were read at 1 and 4 MB (nested arrays at 250 KB and
   * 1 MB already): at 250 KB every ratio stays as far below the bound, and a quadratic put into the strict
   * parser for the check (a scan back to the start at every 64th member name; reverted) read 2.9 on the wide
   * object with spaced colons and failed.
   */
  const shapes: [string, (size: number) => string][] = [
    ["nested arrays at depth 500", (size) => repeatToSize("[", "[".repeat(500) + "1" + "]".repeat(500), "]", size)],
    ["a long string of escapes", (size) => '"' + '\\n\\"\\u00e9a\\\\'.repeat(Math.floor(size / 16)) + '"'],
    ["many small numbers", (size) => repeatToSize("[", "1,23,-4.5,6e7,0", "]", size)],
    ["a wide object", (size) => wideObject(size, (k) => `"k${k}":${k}`)],
    ["a wide object with spaced colons", (size) => wideObject(size, (k) => `"k${k}" : ${k}`)],
    ["strings full of colons", (size) => repeatToSize("[", '"a :b : c ::"', "]", size)],
    ["many big integers", (size) => repeatToSize("[", "12345678901234567890", "]", size)],
  ];

  /** The rate of the 1 MB text over that of the 250 KB text must stay below this; a quadratic parser reads 4. */
  const bound = 2;

  /**
   * The large text's rate over the small text's, as a share of the same figure for JSON.parse on the same two
   * texts when JSON.parse's own exceeds 1: CPU time, the least of each over up to four interleaved rounds (see
   * ../cost.ts), so that load cannot move the figure. The reference takes out what the runtime charges for
   * holding one large result instead of four smaller ones, which is not the parser's growth: on "many small
   * numbers" JSON.parse itself reads 2.0 on Node 20 and 3.2-3.3 on Node 26 (and parseJsonText read 3.28 there
   * in CI). A quadratic parser still reads about 4 over it.
   */
  function rateRatio(parse: (text: string) => unknown, small: string, large: string): number {
    const times = Math.round(large.length / small.length);
    const ratio = ([s, l, rs, rl]: number[]) => l! / s! / Math.max(1, rl! / rs!);
    const least = leastOf(
      () => [
        perUnit(parse, small, times),
        perUnit(parse, large, 1),
        perUnit(JSON.parse, small, times),
        perUnit(JSON.parse, large, 1),
      ],
      4,
      (least) => ratio(least) < bound,
    );
    return ratio(least);
  }

  const parsers: [string, (text: string) => unknown][] = [
    ["parseJsonText", (text) => parseJsonText(text)],
    ["parseJsonTextStrict", (text) => parseJsonTextStrict(text, jsonTextMaxDepthDefault)],
  ];

  /** The last shape's texts: both parsers read the same two, and making them took as long as parsing them. */
  let last: { make: (size: number) => string; small: string; large: string } | undefined;
  function textsOf(make: (size: number) => string, size: number): { small: string; large: string } {
    if (last?.make !== make) last = { make, small: make(size), large: make(4 * size) };
    return last;
  }

  it.each(shapes.flatMap(([shape, make]) => parsers.map(([name, parse]) => [shape, name, make, parse] as const)))(
    "%s (%s): 4x the text parsed at the rate of 1x, within 2x",
    (_, __, make, parse) => {
      const { small, large } = textsOf(make, 250_000);
      parse(small); // warm up
      expect(rateRatio(parse, small, large)).toBeLessThan(bound);
    },
  );
});

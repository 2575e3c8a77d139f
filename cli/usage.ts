/**
 * The command line's own words for what `node:util`'s `parseArgs` refuses, in the style of the command's other
 * messages (lower case, no full stop, the argument in single quotes), with the closest option for a misspelt
 * one: `unknown option '--prety' (did you mean --pretty?)`.
 *
 * @module
 */

/**
 * The message for an error `parseArgs` threw, given the long option names the command takes.
 *
 * @example
 * parseArgsProblem(unknownPrety, ["pretty", "to"]); //=> "unknown option '--prety' (did you mean --pretty?)"
 */
export function parseArgsProblem(e: unknown, longOptions: readonly string[]): string {
  const text = (e instanceof Error ? e.message : String(e)).split("\n")[0] ?? "";
  const code = (e as { code?: unknown } | null)?.code;
  const unknown = /^Unknown option '([^']*)'/.exec(text);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && unknown !== null) {
    const option = unknown[1]!;
    const closest = option.startsWith("--") ? closestOption(option.slice(2), longOptions) : undefined;
    return `unknown option '${option}'` + (closest === undefined ? "" : ` (did you mean --${closest}?)`);
  }
  const named = /^Option '(?:-., )?(--[^ ']+)(?: <value>)?'/.exec(text);
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && named !== null) {
    if (text.endsWith("argument missing")) return `${named[1]} needs a value`;
    // `--max-depth -1`: parseArgs will not take an argument that looks like an option as a value.
    if (/argument is ambiguous/.test(text)) {
      return `${named[1]} needs a value (write ${named[1]}=VALUE for one that starts with '-')`;
    }
    if (text.endsWith("does not take an argument")) return `${named[1]} takes no value`;
  }
  // Anything else parseArgs says (none known): its first sentence, in the same style.
  const sentence = text.replace(/\. To specify.*$/, "").replace(/\.$/, "");
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

/**
 * The option `typed` most likely meant: the one at the least edit distance (a transposition counts one), if
 * that is at most a quarter of its length (at least 1), case ignored; the first in `options` on a tie.
 *
 * @example
 * closestOption("prety", ["pretty", "to"]); //=> "pretty"
 * closestOption("bogus", ["pretty", "to"]); //=> undefined
 */
export function closestOption(typed: string, options: readonly string[]): string | undefined {
  const want = typed.toLowerCase();
  const allowed = Math.max(1, Math.floor(want.length / 4));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const option of options) {
    const d = editDistance(want, option, bestDistance);
    if (d < bestDistance) {
      best = option;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * The optimal-string-alignment distance of `a` and `b` (insertions, deletions, substitutions and transpositions of
 * neighbours, each 1), or `stop` or more once it is known to be at least `stop`. Quadratic in the lengths; an
 * option typed on a command line is short, and a long one is given up on after its first rows.
 */
function editDistance(a: string, b: string, stop: number): number {
  if (Math.abs(a.length - b.length) >= stop) return stop;
  let before: number[] = [];
  let previous: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const same = a.charCodeAt(i - 1) === b.charCodeAt(j - 1);
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (same ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
      if (d < rowMin) rowMin = d;
    }
    if (rowMin >= stop) return stop;
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}

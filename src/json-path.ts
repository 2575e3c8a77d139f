/**
 * Reading a JSON path back into its keys: `$.items[2]["team name"]` is `["items", 2, "team name"]`. Our errors
 * carry their path as the string (`jsonPath`, built only when an error is raised); the keys (`path`, as Standard
 * Schema gives them) are read from it when asked for. The string is the form `pathSegment` writes (path.ts):
 * `.name` for identifier-like names, `["other key"]` (a JSON string) otherwise, `[3]` for indexes.
 *
 * A module of its own at the root so that errors.ts can use it: path.ts builds on errors.ts.
 *
 * @module
 */

/**
 * Splits a path like `$.a[2]["x y"]` into `["a", 2, "x y"]`, or returns undefined if it is malformed.
 *
 * @example
 * jsonPathSegments('$.a[2]["x y"]'); //=> ["a", 2, "x y"]
 */
export function jsonPathSegments(path: string): (string | number)[] | undefined {
  if (path.charCodeAt(0) !== 36) return undefined;
  const segments: (string | number)[] = [];
  const n = path.length;
  let i = 1;
  while (i < n) {
    const c = path.charCodeAt(i);
    if (c === 46) {
      const start = ++i;
      while (i < n && path.charCodeAt(i) !== 46 && path.charCodeAt(i) !== 91) i++;
      if (i === start) return undefined;
      segments.push(path.slice(start, i));
    } else if (c === 91) {
      i++;
      if (path.charCodeAt(i) === 34) {
        const close = skipStringLax(path, i);
        if (close < 0) return undefined;
        const name = decodeStringLax(path, i, close);
        if (name === undefined) return undefined;
        segments.push(name);
        i = close + 1;
      } else {
        const start = i;
        let index = 0;
        for (let d = path.charCodeAt(i) - 48; d >= 0 && d <= 9; d = path.charCodeAt(++i) - 48) index = index * 10 + d;
        if (i === start) return undefined;
        segments.push(index);
      }
      if (path.charCodeAt(i) !== 93) return undefined;
      i++;
    } else {
      return undefined;
    }
  }
  return segments;
}

/** Returns the offset of the quote that closes the string opening at `open`, or -1; checks no escape. */
export function skipStringLax(text: string, open: number): number {
  const n = text.length;
  for (let j = open + 1; j < n; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) return j;
    if (c === 92) j++;
  }
  return -1;
}

/** Decodes a string literal found by {@link skipStringLax}, or returns undefined if it is not valid. */
export function decodeStringLax(text: string, open: number, close: number): string | undefined {
  for (let j = open + 1; j < close; j++) {
    if (text.charCodeAt(j) === 92) {
      try {
        return JSON.parse(text.slice(open, close + 1)) as string;
      } catch {
        return undefined;
      }
    }
  }
  return text.slice(open + 1, close);
}

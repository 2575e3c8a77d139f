import { describe as group, expect, it } from "vitest";
import { describe } from "../src/internal/describe.js";

group("describe", () => {
  class Point {}
  it.each<[string, unknown, string]>([
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["an array", [], "an array"],
    ["a plain object", {}, "an object"],
    ["a null-prototype object", Object.create(null), "an object"],
    ["a Date", new Date(0), "an instance of Date"],
    ["a class instance", new Point(), "an instance of Point"],
    ["a string", "s", "a string"],
    ["a number", 1, "a number"],
    ["NaN", NaN, "NaN"],
    ["Infinity", Infinity, "Infinity"],
    ["-Infinity", -Infinity, "-Infinity"],
    ["a bigint", 1n, "a bigint"],
    ["a boolean", true, "a boolean"],
    ["a symbol", Symbol("x"), "a symbol"],
    ["a function", () => 0, "a function"],
  ])("names %s as %s", (_, value, want) => {
    expect(describe(value)).toBe(want);
  });

  it("names a Proxy whose traps throw as an object", () => {
    const proxy = new Proxy(
      {},
      {
        getPrototypeOf(): object {
          throw new Error("trap");
        },
      },
    );
    expect(describe(proxy)).toBe("an object");
  });
});

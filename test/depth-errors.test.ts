// The text parser's nesting guard (twice maxDepth, plus 2) reported as the codec's maxDepth: the detail names one
// number, the limit the caller set, and keeps the rule, path, line and column of the parser's error.

import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { textDepthAsMaxDepth, textDepthBound, textDepthDetail } from "../src/codec/depth-errors.js";
import { WktJsonError } from "../src/errors.js";
import { fromJsonString, validateJsonString } from "../src/index.js";
import { catchWkt } from "./helpers.js";

describe("the text depth error", () => {
  it.each<[number | undefined, string]>([
    [undefined, "100"],
    [7, "7"],
    [1_000, "1,000"],
  ])("at maxDepth %s names that one number only", (maxDepth, shown) => {
    const options = maxDepth === undefined ? {} : { maxDepth };
    const text = "[".repeat(1_000_000);
    const e = catchWkt(() => fromJsonString(ValueSchema, text, options));
    expect(e).toMatchObject({ rule: "depth", typeName: "JSON", line: 1 });
    expect(e.detail).toBe(`the text nests objects and arrays deeper than maxDepth (${shown}) allows`);
    expect(e.detail.match(/[\d,]+/g)).toEqual([shown]);
    expect(e.message).not.toContain(String(textDepthBound(maxDepth ?? 100)));
    const issues = validateJsonString(ValueSchema, text, options);
    expect(issues[0]).toMatchObject({ rule: "depth", jsonPath: e.jsonPath, detail: e.detail });
  });

  it("keeps the parser error's rule, path, line and column, and passes other errors through", () => {
    const parser = new WktJsonError("depth", "$[0][0]", "JSON", "more than 202 nested");
    parser.line = 3;
    parser.column = 9;
    const e = textDepthAsMaxDepth(parser, 100) as WktJsonError;
    expect(e).toMatchObject({ rule: "depth", jsonPath: "$[0][0]", typeName: "JSON", line: 3, column: 9 });
    expect(e.detail).toBe(textDepthDetail(100));
    const other = new WktJsonError("syntax", "$", "JSON", "x");
    expect(textDepthAsMaxDepth(other, 100)).toBe(other);
  });
});

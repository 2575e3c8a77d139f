import { create } from "@bufbuild/protobuf";
import { DurationSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { durationTypeName, timestampTypeName } from "../src/internal/names.js";
import { checkMessage, isMessageOf } from "../src/internal/message-type.js";
import { catchWkt } from "./helpers.js";

describe("isMessageOf and checkMessage", () => {
  const ts = create(TimestampSchema);
  it.each([
    ["a Timestamp", ts, true],
    ["a Timestamp built by hand", { $typeName: timestampTypeName, seconds: 0n, nanos: 0 }, true],
    ["a Duration", create(DurationSchema), false],
    ["an object without $typeName", { seconds: 0n, nanos: 0 }, false],
    ["null", null, false],
    ["a string", timestampTypeName, false],
  ])("%s is a Timestamp: %s", (_, value, expected) => {
    expect(isMessageOf(value, timestampTypeName)).toBe(expected);
    if (expected) expect(() => checkMessage(value, timestampTypeName)).not.toThrow();
    else
      expect(catchWkt(() => checkMessage(value, timestampTypeName))).toMatchObject({
        rule: "json-type",
        jsonPath: "$",
      });
  });

  it("names the type it expected and the one it got", () => {
    expect(catchWkt(() => checkMessage(ts, durationTypeName)).typeName).toBe(durationTypeName);
  });
});

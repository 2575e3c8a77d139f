// toJsonString prints one-line text while it walks the message, without building the JSON value first. These
// helpers pin it to the value writer: the text is exactly JSON.stringify(toJson(...)), except that a -0 keeps
// its sign ("-0"), and a message that toJson rejects is rejected by toJsonString with the same error.

import type { DescMessage, JsonValue, MessageShape } from "@bufbuild/protobuf";
import { expect } from "vitest";
import { isWktJsonError } from "../src/errors.js";
import { toJson, toJsonString, type JsonWriteStringOptions } from "../src/codec/to-json.js";

/** JSON.stringify on one line, except that -0 is printed "-0" (JSON.stringify prints "0"). */
export function stringifyKeepingSign(v: JsonValue): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : JSON.stringify(v);
  if (typeof v !== "object" || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return "[" + v.map(stringifyKeepingSign).join(",") + "]";
  return (
    "{" +
    Object.keys(v)
      .map((k) => JSON.stringify(k) + ":" + stringifyKeepingSign(v[k]!))
      .join(",") +
    "}"
  );
}

type Outcome = { text: string } | { error: unknown };

function outcome(run: () => string): Outcome {
  try {
    return { text: run() };
  } catch (error) {
    return { error };
  }
}

/** What a thrown value is, for comparison: every field of a WktJsonError, else its class and message. */
function errorShape(e: unknown): unknown {
  if (isWktJsonError(e)) {
    return {
      rule: e.rule,
      jsonPath: e.jsonPath,
      typeName: e.typeName,
      detail: e.detail,
      message: e.message,
      line: e.line,
      column: e.column,
    };
  }
  return { notOurs: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

function overflowed(e: unknown): boolean {
  return isWktJsonError(e) && e.rule === "depth" && e.detail.includes("call stack");
}

/**
 * Expects toJsonString(desc, message, options) to be the one-line text of toJson's value (-0 kept), or the
 * error toJson throws.
 */
export function expectTextAgrees(
  desc: DescMessage,
  message: MessageShape<DescMessage>,
  options?: Partial<JsonWriteStringOptions>,
): void {
  const fromValue = outcome(() => stringifyKeepingSign(toJson(desc, message, options)));
  const direct = outcome(() => toJsonString(desc, message, options));
  if ("error" in fromValue) {
    // Nesting beyond what the call stack takes is rule "depth" either way; how deep each writer gets first
    // depends on the frames it uses per level.
    if ("error" in direct && (overflowed(fromValue.error) || overflowed(direct.error))) {
      expect(isWktJsonError(direct.error) && direct.error.rule === "depth").toBe(true);
      return;
    }
    expect("error" in direct ? errorShape(direct.error) : direct).toEqual(errorShape(fromValue.error));
  } else {
    expect("error" in direct ? errorShape(direct.error) : direct.text).toBe(fromValue.text);
  }
}

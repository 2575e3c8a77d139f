/**
 * The internal JSON text parser (`parseJsonText`: `JSON.parse` plus the checks it lacks: duplicate keys, exact
 * big integers, depth) beside `JSON.parse` alone. `@bufbuild/protobuf` has no such function: its
 * `fromJsonString` is `JSON.parse` and then `fromJson`, measured under Struct and the whole-message cases.
 */
import { parseJsonText } from "../../src/codec/json-text.js";
import { same } from "../check.js";
import { bigIntDocument, freeFormDocument, numberArray } from "../fixtures.js";
import { sink, type Case } from "../harness.js";

export function jsonTextCases(): Case[] {
  const fixtures: [string, string][] = [
    ["1KB", freeFormDocument(5, 1_000)],
    ["100KB", freeFormDocument(2, 100_000)],
    ["100KB-indented", freeFormDocument(3, 100_000, 2)],
    ["1000-numbers", numberArray(4, 1_000)],
    ["bigints", bigIntDocument(5, 500)],
  ];
  return fixtures.map(([name, text]): Case => {
    if (name !== "bigints") same(`parseJsonText ${name}`, parseJsonText(text), JSON.parse(text));
    return {
      area: "JSON text parser (internal)",
      name: `parse/${name}`,
      ops: 1,
      ours: () => {
        sink.v = parseJsonText(text);
      },
      floor: {
        name: "JSON.parse",
        run: () => {
          sink.v = JSON.parse(text);
        },
      },
    };
  });
}

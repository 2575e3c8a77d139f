// The law of the HTTP request functions: fromHttpRequest(toHttpRequest(m)) equals m, for every message the rule
// can carry (library.proto's Everything: every scalar kind, enums, repeated fields, maps, oneofs, the WKTs in
// their string forms, Struct and Value, a nested message), under rules that put a field in the path (one
// segment, or several with a verb), a field in the body, or everything in the body.
import { create, type DescMessage } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromHttpRequest, toHttpRequest, toJson, type HttpRule } from "../../src/index.js";
import { arbMessage } from "../arbitrary.js";
import { Everything } from "./registry.js";

const rules: HttpRule[] = [
  { get: "/v1/{name}" },
  { get: "/v1/{name=**}:do" },
  { post: "/v1/{name}/x", body: "author" },
  { patch: "/v1/{name}", body: "*" },
  { get: "/v1/{author.given_name}/books" },
  { get: "/v1/{name}/{i32}/{flag}/{genre}" },
];

/** A message set to a message with no field set has no query parameter; it reads back unset. */
function carried(desc: DescMessage, m: Record<string, unknown>): Record<string, unknown> {
  const json = toJson(desc, m as never) as Record<string, unknown>;
  const author = json["author"] as Record<string, unknown> | undefined;
  if (author !== undefined && Object.keys(author).length === 0) delete json["author"];
  return json;
}

describe("fromHttpRequest(toHttpRequest(m)) equals m", () => {
  it.each(rules.map((r) => [JSON.stringify(r), r] as const))("under %s", (_, rule) => {
    const inPath = rule.get?.includes("author") === true;
    fc.assert(
      fc.property(
        arbMessage(Everything, { maxDepth: 2, setChance: 0.3, negativeZero: false }),
        fc.string({ minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (m, name, useProtoFieldName) => {
          const msg = create(Everything, m as never) as Record<string, unknown>;
          if (inPath) msg["author"] = create(Everything.field["author"]!.message!, { givenName: name } as never);
          else msg["name"] = name;
          const req = toHttpRequest(Everything, msg as never, { rule, useProtoFieldName });
          const back = fromHttpRequest(Everything, { method: req.method, path: req.url, body: req.body }, { rule });
          expect(carried(Everything, back as never)).toEqual(carried(Everything, msg));
          // And through a query given as URLSearchParams, a body given as text.
          const text = req.body === undefined ? undefined : JSON.stringify(req.body);
          const again = fromHttpRequest(
            Everything,
            { method: req.method, path: req.path, query: new URLSearchParams(req.query), bodyText: text },
            { rule },
          );
          expect(carried(Everything, again as never)).toEqual(carried(Everything, back as never));
        },
      ),
      { numRuns: 40 },
    );
  });
});

// Masks behave the same in every function that takes one (issue 28): every error about a mask is at the mask's
// path (`maskPath`; patch: `$.updateMask`), quotes the path as the client wrote it, `*` is every field and the
// empty mask is no field, and a PATCH on plain JSON replaces arrays.

import { create, type JsonObject } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  fieldMaskCheck,
  fieldMaskCovers,
  fieldMaskFromJson,
  fieldMaskFromPatch,
  fieldMaskIntersect,
  fieldMaskIsValid,
  fieldMaskMerge,
  fieldMaskNormalize,
  fieldMaskProject,
  fieldMaskProjectEach,
  fieldMaskSubtract,
  fieldMaskToJson,
  fieldMaskUnion,
  fromJson,
  jsonMerge,
  jsonOmit,
  jsonOmitEach,
  jsonPatch,
  jsonPatchFromJsonString,
  jsonProject,
  jsonProjectEach,
  patch,
  patchFromJsonString,
  toJson,
} from "../src/index.js";
import { catchWkt } from "./helpers.js";
import { makeFixtures } from "./readme/fixtures.js";
import { BookSchema, ListBooksRequestSchema, type Book } from "./readme/gen/library_pb.js";

const { stored, storedJson, hook } = makeFixtures();
const behavior = { outputOnly: ["name", "create_time", "update_time"] };

/** Each function that takes a mask, called with `mask` and (when given) the option that places its errors. */
const byFunction: [string, (mask: string[], maskPath?: string) => unknown][] = [
  ["fieldMaskCheck", (mask, maskPath) => fieldMaskCheck(BookSchema, mask, { maskPath })],
  ["fieldMaskProject", (mask, maskPath) => fieldMaskProject(BookSchema, stored, mask, { maskPath })],
  ["fieldMaskProjectEach", (mask, maskPath) => fieldMaskProjectEach(BookSchema, [stored], mask, { maskPath })],
  ["fieldMaskMerge", (mask, maskPath) => fieldMaskMerge(BookSchema, stored, stored, mask, { maskPath })],
  ["fieldMaskNormalize", (mask, maskPath) => fieldMaskNormalize(mask, { maskPath })],
  ["fieldMaskUnion", (mask, maskPath) => fieldMaskUnion(["title"], mask, { maskPath })],
  ["fieldMaskIntersect", (mask, maskPath) => fieldMaskIntersect(mask, ["title"], { maskPath })],
  ["fieldMaskSubtract", (mask, maskPath) => fieldMaskSubtract(mask, ["title"], BookSchema, { maskPath })],
  ["fieldMaskCovers", (mask, maskPath) => fieldMaskCovers(mask, "title", { maskPath })],
  ["jsonProject", (mask, maskPath) => jsonProject(storedJson, mask, { maskPath })],
  ["jsonProjectEach", (mask, maskPath) => jsonProjectEach([storedJson], mask, { maskPath })],
  ["jsonOmit", (mask, maskPath) => jsonOmit(storedJson, mask, { maskPath })],
  ["jsonOmitEach", (mask, maskPath) => jsonOmitEach([storedJson], mask, { maskPath })],
  ["jsonMerge", (mask, maskPath) => jsonMerge(storedJson, {}, mask, { maskPath })],
  ["patch", (mask, maskPath) => patch(BookSchema, stored, {}, { ...behavior, updateMask: mask, maskPath })],
  ["jsonPatch", (mask, maskPath) => jsonPatch(BookSchema, storedJson, {}, { ...behavior, updateMask: mask, maskPath })],
];

/** A mask that does not parse, for every function (the schema-free ones read AIP-161 paths). */
const unparsable = ["title..x"];

describe("every mask error is at the mask's path", () => {
  it.each(byFunction)("%s: at $ by default (patch: $.updateMask), at maskPath when given", (name, call) => {
    const fallback = name === "patch" || name === "jsonPatch" ? "$.updateMask" : "$";
    expect(catchWkt(() => call(unparsable))).toMatchObject({ rule: "mask-path", jsonPath: fallback });
    expect(catchWkt(() => call(unparsable, "$.readMask"))).toMatchObject({ rule: "mask-path", jsonPath: "$.readMask" });
    // A mask that is not a FieldMask or an array of paths is an error about the mask too.
    expect(catchWkt(() => call([1] as never, "$.readMask"))).toMatchObject({
      rule: "json-type",
      jsonPath: "$.readMask",
    });
    expect(catchWkt(() => call(["title"], "readMask"))).toMatchObject({ rule: "range", typeName: "options" });
  });

  it.each([
    ["a field the schema lacks", ["nope"]],
    ["a repeated field before the last position", ["tags.x"]],
    ["`*` inside a path", ["labels.*"]],
  ])("the message functions: %s", (_, mask) => {
    for (const [name, call] of byFunction) {
      if (!name.startsWith("fieldMask") || name === "fieldMaskNormalize" || name === "fieldMaskIntersect") continue;
      if (name === "fieldMaskCovers" || name === "fieldMaskUnion") continue;
      if (mask[0] === "labels.*" && name !== "fieldMaskMerge") continue; // a read mask may hold it (aip161)
      expect(
        catchWkt(() => call(mask, "$.readMask")),
        name,
      ).toMatchObject({ rule: "mask-path", jsonPath: "$.readMask" });
    }
  });

  it("too many paths, `*` in an update mask, a name applied to an array, a missing mask", () => {
    const many = Array.from({ length: 101 }, (_, i) => `k${i}`);
    expect(catchWkt(() => fieldMaskIntersect(many, ["*"], { maxPaths: 100, maskPath: "$.m" }))).toMatchObject({
      rule: "size",
      jsonPath: "$.m",
    });
    expect(catchWkt(() => jsonMerge(hook, {}, ["events.*"], { maskPath: "$.m" }))).toMatchObject({
      rule: "mask-path",
      jsonPath: "$.m",
    });
    expect(catchWkt(() => jsonProject(hook, ["events.name"], { maskPath: "$.m" }))).toMatchObject({
      rule: "mask-path",
      jsonPath: "$.m",
    });
    expect(catchWkt(() => jsonProjectEach([hook], ["events.name"], { maskPath: "$.m" }))).toMatchObject({
      rule: "mask-path",
      jsonPath: "$.m",
    });
    expect(catchWkt(() => jsonMerge(hook, {}, undefined, { requireMask: true, maskPath: "$.m" }))).toMatchObject({
      rule: "mask-path",
      jsonPath: "$.m",
    });
    expect(
      catchWkt(() => fieldMaskMerge(BookSchema, stored, stored, undefined, { requireMask: true, maskPath: "$.m" })),
    ).toMatchObject({ rule: "mask-path", jsonPath: "$.m" });
  });

  it("errors about the data keep their own paths", () => {
    expect(
      catchWkt(() => fieldMaskProjectEach(BookSchema, [stored, {} as Book], ["title"], { maskPath: "$.m" })),
    ).toMatchObject({ rule: "json-type", jsonPath: "$[1]" });
    expect(catchWkt(() => jsonMerge({ a: 1 }, [] as never, ["a"], { maskPath: "$.m" }))).toMatchObject({
      jsonPath: "$",
    });
    expect(catchWkt(() => patch(BookSchema, stored, { tags: "x" }, { updateMask: "tags" }))).toMatchObject({
      rule: "json-type",
      jsonPath: "$.tags",
    });
  });

  it("patch: the query parameter's errors at $.updateMask, whatever found them", () => {
    for (const updateMask of ["nope", "due_time", "title,,tags", ["nope"], ["tags.x"]]) {
      expect(
        catchWkt(() => patch(BookSchema, stored, {}, { updateMask })),
        String(updateMask),
      ).toMatchObject({
        rule: "mask-path",
        jsonPath: "$.updateMask",
      });
      expect(catchWkt(() => patchFromJsonString(BookSchema, stored, "{}", { updateMask }))).toMatchObject({
        jsonPath: "$.updateMask",
      });
      expect(catchWkt(() => jsonPatchFromJsonString(BookSchema, storedJson, "{}", { updateMask }))).toMatchObject({
        jsonPath: "$.updateMask",
      });
    }
    // `*` inside a path (a map key is allowed with aip161, `*` is not), and an OUTPUT_ONLY path under strict.
    expect(
      catchWkt(() => patch(BookSchema, stored, {}, { updateMask: ["labels.*"], aip161: true, maskPath: "$.mask" })),
    ).toMatchObject({ rule: "mask-path", jsonPath: "$.mask" });
    expect(
      catchWkt(() =>
        patch(BookSchema, stored, {}, { ...behavior, strict: true, updateMask: "name", maskPath: "$.update_mask" }),
      ),
    ).toMatchObject({ rule: "field-behavior", jsonPath: "$.update_mask" });
  });

  it("a read mask decoded with a path keeps it when a later function finds the error", () => {
    const readMask = fieldMaskFromJson("title,author.nickName", { path: "$.readMask" });
    expect(catchWkt(() => fieldMaskProject(BookSchema, stored, readMask, { maskPath: "$.readMask" }))).toMatchObject({
      jsonPath: "$.readMask",
    });
  });
});

describe("a mask error quotes the path as the client wrote it", () => {
  it("the JSON form (a query parameter): the client's text, and the proto name beside it", () => {
    const mask = fieldMaskFromJson("title,author.nickName");
    const e = catchWkt(() => fieldMaskCheck(BookSchema, mask, { maskPath: "$.readMask" }));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$.readMask" });
    expect(e.detail).toContain('path "author.nickName" (proto name "author.nick_name"): segment "nickName"');
    const p = catchWkt(() => patch(BookSchema, stored, {}, { updateMask: "author.nickName" }));
    expect(p).toMatchObject({ rule: "mask-path", jsonPath: "$.updateMask" });
    expect(p.detail).toContain('"author.nickName"');
    expect(p.detail).toContain('"author.nick_name"');
    // A request decoded by the codec remembers it as well.
    const request = fromJson(ListBooksRequestSchema, { readMask: "publishTime,author.nickName" });
    expect(catchWkt(() => fieldMaskProject(BookSchema, stored, request.readMask)).detail).toContain(
      '"author.nickName"',
    );
  });

  it("a path written as proto names is quoted first as it is, its JSON form beside it", () => {
    expect(catchWkt(() => fieldMaskCheck(BookSchema, ["author.nick_name"])).detail).toContain(
      'path "author.nick_name" (JSON form "author.nickName"): segment "nick_name"',
    );
    expect(catchWkt(() => fieldMaskCheck(BookSchema, ["nope"])).detail).toContain('path "nope": segment "nope"');
    // A path changed after decoding is quoted as it now is.
    const mask = fieldMaskFromJson("author.nickName");
    mask.paths[0] = "author.pen_name";
    const detail = catchWkt(() => fieldMaskCheck(BookSchema, mask)).detail;
    expect(detail).toContain('"author.penName"');
    expect(detail).toContain('"author.pen_name"');
  });

  it("a long path is quoted once", () => {
    const long = Array.from({ length: 60 }, () => "ab_cd").join(".");
    const detail = catchWkt(() => fieldMaskCheck(BookSchema, [long])).detail;
    expect(detail.split(long).length - 1).toBe(1);
    expect(detail).not.toContain("abCd");
  });

  it("a proto name in the JSON form says how to write it", () => {
    const e = catchWkt(() => fieldMaskFromJson("title,author.given_name", { path: "$.readMask" }));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$.readMask" });
    expect(e.detail).toContain('write "author.givenName"');
    expect(catchWkt(() => fieldMaskFromJson("a__b")).detail).not.toContain("write");
  });

  it("a JSON name in a list of proto paths says which field it is", () => {
    const e = catchWkt(() => fieldMaskCheck(BookSchema, ["publishTime"]));
    expect(e.detail).toContain("JSON name of the field publish_time");
  });
});

describe("`*` is every field, in every function that reads a mask", () => {
  it("the JSON form: `*` alone, written back as it is; beside other paths it is refused", () => {
    expect(fieldMaskFromJson("*").paths).toEqual(["*"]);
    expect(fieldMaskToJson(["*"])).toBe("*");
    expect(fromJson(ListBooksRequestSchema, { readMask: "*" }).readMask?.paths).toEqual(["*"]);
    expect(toJson(FieldMaskSchema, create(FieldMaskSchema, { paths: ["*"] }))).toBe("*");
    for (const text of ["*,title", "title,*", "**", "*.title"]) {
      expect(
        catchWkt(() => fieldMaskFromJson(text, { path: "$.readMask" })),
        text,
      ).toMatchObject({
        rule: "mask-path",
        jsonPath: "$.readMask",
      });
    }
    expect(catchWkt(() => fieldMaskToJson(["*", "title"]))).toMatchObject({ rule: "mask-path" });
  });

  it("?readMask=* returns everything", () => {
    const all = fieldMaskFromJson("*");
    expect(fieldMaskProject(BookSchema, stored, all)).toEqual(stored);
    expect(fieldMaskProjectEach(BookSchema, [stored], all)).toEqual([stored]);
    expect(jsonProject(storedJson, all)).toEqual(storedJson);
    expect(jsonProjectEach([storedJson], all)).toEqual([storedJson]);
    expect(fieldMaskCheck(BookSchema, all)).toBeUndefined();
    expect(fieldMaskIsValid(BookSchema, all)).toBe(true);
    expect(fieldMaskCovers(all, "author.given_name")).toBe(true);
    expect(jsonOmit(storedJson, all)).toEqual({});
  });

  it("?updateMask=* replaces everything", () => {
    const body = { title: "T" };
    expect(patch(BookSchema, stored, body, { updateMask: "*" }).title).toBe("T");
    expect(patch(BookSchema, stored, body, { updateMask: "*" }).tags).toEqual([]);
    expect(jsonMerge(storedJson, body, fieldMaskFromJson("*"))).toEqual(body);
    expect(fieldMaskMerge(BookSchema, stored, create(BookSchema, body), fieldMaskFromJson("*")).tags).toEqual([]);
  });
});

describe("the empty mask is no field, in every function", () => {
  // A mask is a set of paths: the empty one selects nothing. Omitting the mask (undefined) is another thing:
  // every field for a read (AIP-157), the populated fields for patch (AIP-134), every field for fieldMaskMerge.
  it("reads return nothing, updates change nothing", () => {
    const empty = fieldMaskFromJson("");
    expect(fieldMaskProject(BookSchema, stored, empty)).toEqual(create(BookSchema));
    expect(fieldMaskProjectEach(BookSchema, [stored], empty)).toEqual([create(BookSchema)]);
    expect(jsonProject(storedJson, empty)).toEqual({});
    expect(jsonProjectEach([storedJson], empty)).toEqual([{}]);
    expect(jsonOmit(storedJson, empty)).toEqual(storedJson);
    expect(fieldMaskCheck(BookSchema, empty)).toBeUndefined();
    expect(fieldMaskCovers(empty, "title")).toBe(false);
    const other = create(BookSchema, { title: "T" });
    expect(fieldMaskMerge(BookSchema, stored, other, empty)).toEqual(stored);
    expect(jsonMerge(storedJson, { title: "T" }, empty)).toEqual(storedJson);
    expect(patch(BookSchema, stored, { title: "T" }, { updateMask: "" })).toEqual(stored);
    expect(patch(BookSchema, stored, { title: "T" }, { updateMask: [] })).toEqual(stored);
    expect(jsonPatch(BookSchema, storedJson, { title: "T" }, { updateMask: "" })).toEqual(storedJson);
  });

  it("no mask at all is every field (reads) or the fields the body holds (patch)", () => {
    expect(fieldMaskProject(BookSchema, stored)).toEqual(stored);
    expect(jsonProject(storedJson)).toEqual(storedJson);
    expect(patch(BookSchema, stored, { title: "T" }).title).toBe("T");
  });
});

describe("a PATCH on plain JSON replaces arrays", () => {
  it("the webhook recipe: PATCH /hooks/{id} replaces events and config; PATCH /hooks/{id}/config merges", () => {
    const sent = { events: ["push", "pull_request"], config: { url: "https://ci.example.com/v2" } };
    const updated = jsonMerge(hook, sent, fieldMaskFromPatch(sent), { replaceMessageFields: true });
    expect(updated.events).toEqual(["push", "pull_request"]);
    expect(updated.config).toEqual({ url: "https://ci.example.com/v2" });
    expect(jsonMerge(hook, { events: ["pull_request"] }, ["events"]).events).toEqual(["pull_request"]);
    expect(jsonMerge(hook.config, sent.config, fieldMaskFromPatch(sent.config))).toEqual({
      url: "https://ci.example.com/v2",
      content_type: "json",
      secret: "s3cr3t",
      insecure_ssl: "0",
    });
    // protobuf's FieldMaskUtil.merge appends: asked for, not the default.
    expect(jsonMerge(hook, sent, ["events"], { replaceRepeatedFields: false }).events).toEqual([
      "push",
      "push",
      "pull_request",
    ]);
    expect(hook.events).toEqual(["push"]); // the stored hook is not changed
  });

  it("arrays inside a merged object are replaced too", () => {
    const target = { config: { hosts: ["a", "b"], port: 1 } };
    expect(jsonMerge(target, { config: { hosts: ["c"] } }, ["config"])).toEqual({ config: { hosts: ["c"], port: 1 } });
  });

  it("fieldMaskMerge keeps protobuf's FieldMaskUtil.merge: a repeated field appended", () => {
    const source = create(BookSchema, { tags: ["utopia"] });
    expect(fieldMaskMerge(BookSchema, stored, source, ["tags"]).tags).toEqual(["sf", "utopia"]);
    expect(patch(BookSchema, stored, { tags: ["utopia"] }).tags).toEqual(["utopia"]);
    expect((jsonPatch(BookSchema, storedJson, { tags: ["utopia"] }) as JsonObject).tags).toEqual(["utopia"]);
  });
});

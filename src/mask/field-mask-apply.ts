/**
 * FieldMask projection and update, on protobuf-es messages and on plain JSON resources: the rules, and what
 * this library decides where the texts are silent. The functions are in field-mask-project.ts and
 * field-mask-merge.ts (messages), json-project.ts and json-merge.ts (JSON) and field-mask-from-patch.ts, and
 * are exported from here.
 *
 * Rule 7 (wkt.md): "FieldMask projection: a response is filtered to the fields named in the mask; other fields
 * take default values. A repeated field is allowed only at the last position of a path. Without a mask a get
 * applies to all fields. For list operations the mask applies to each element; for custom methods, the
 * declaration states where it applies."
 *
 * Rule 8: "FieldMask update: only the masked fields of the target change; values of unmasked fields in a
 * supplied resource are ignored. To reset a field to default, put it in the mask with the default value in the
 * resource. With no mask, all fields are updated (unknown fields are reset to default). A service may require a
 * mask and return an error without it."
 *
 * field_mask.proto fixes the update of a message field in the last position of a path ("sub-messages are
 * merged") and of a repeated field ("new values will be appended to the existing repeated field in the
 * target"), and lets an implementation offer options to replace them instead: `replaceMessageFields` and
 * `replaceRepeatedFields` here, as in Java's `FieldMaskUtil.MergeOptions` and C++'s `MergeOptions`. That is
 * `fieldMaskMerge`'s default. The PATCH functions replace arrays by default: `patch` and `jsonPatch` (a masked
 * repeated, map or message field takes the body's value) and `jsonMerge` (the PATCH of a resource kept as JSON,
 * `jsonMerge(stored, body, fieldMaskFromPatch(body))`), as AIP-161's read-write consistency asks ("If a user
 * updates a resource with a given mask, and then reads the same resource with the same mask, the exact same data
 * must be returned") and JSON Merge Patch (RFC 7396) does; `replaceRepeatedFields: false` appends.
 *
 * No mask, `*` and the empty mask, the same in every function:
 *
 * | mask                  | reads (project, ...)    | fieldMaskMerge, jsonMerge   | patch, jsonPatch          |
 * | --------------------- | ----------------------- | --------------------------- | ------------------------- |
 * | none (undefined)      | every field             | every field                 | the fields the body holds |
 * | `*` (`["*"]` or `"*"`) | every field             | full replacement            | full replacement          |
 * | empty (`[]` or `""`)  | no field: empty, `{}`   | nothing changes             | nothing changes           |
 *
 * AIP-157: "An explicit value of `"*"` should be supported, and must return all fields"; "If the field mask
 * parameter is omitted, it must default to `"*"`". AIP-134: "Update masks must support a special value `*`,
 * meaning full replacement"; "the service must treat an omitted field mask as an implied field mask equivalent
 * to all fields that are populated". Neither gives the empty mask a meaning of its own, and a client can always
 * send one apart from none (an absent query parameter or member, an unset message field): a mask is a set of
 * paths, and the empty set names no field. That keeps AIP-161's read-write consistency ("If a user updates a
 * resource with a given mask, and then reads the same resource with the same mask, the exact same data must be
 * returned") and lets masks computed by the set algebra compose: `fieldMaskIntersect(sent, writable)` may be
 * empty, and then writes nothing; `fieldMaskFromDiff(a, a)` is empty, and merging it changes nothing.
 *
 * Every function that takes a mask has the option `maskPath` (`patch`: default `$.updateMask`): every error
 * about the mask is at it, and a path decoded from the JSON form is quoted as the client wrote it.
 *
 * What this module decides where the texts are silent, and why:
 *
 * - Projection keeps a message (or JSON object) reached through a longer path only if something below it is
 *   kept: projecting `f.b` from `{f: {a: 1}}` gives `{}`, not `{f: {}}`. That is what makes projection
 *   compose: `project(project(m, a), b)` equals `project(m, intersect(a, b))`, which Java's and C++'s
 *   trimming does not satisfy (`f.a` then `f.b` leaves an empty `f`, `intersect` gives nothing). A list reached
 *   through `*` is kept whole (with empty elements, so positions do not move) unless every element is empty.
 * - Update: "to reset a field, put it in the mask with the default value" is applied to every kind of field: a
 *   masked field the source leaves unset (an empty repeated or map field, an unset message field, an absent
 *   JSON property) is reset, also when repeated fields would otherwise be appended and message fields merged
 *   (field_mask.proto: "in order to reset all fields of a resource, provide a default instance of the resource
 *   and set all fields in the mask"). A set source field is merged, appended or replaced as the options say.
 * - A merged message follows protobuf's merge (`merge()` of @bufbuild/protobuf): set fields overwrite, message
 *   fields merge, repeated fields append and map entries overwrite, unknown fields are appended;
 *   `replaceRepeatedFields` applies inside it too, so no list grows when the caller asked for replacement.
 * - No mask means every field of the schema (every property of target and patch, for JSON); the lone path `*`
 *   means full replacement (AIP-134): the result is a copy of the source, unknown fields included; the empty
 *   mask changes nothing (see the table above).
 * - `*` inside a path (AIP-161 wildcards) is for read masks: projections and omissions. An update mask names
 *   what it changes; `*` in it is an error.
 * - Results are new values: inputs are never mutated and never shared with the result (bytes and JSON values
 *   are copied; JSON values other than plain objects and arrays, such as a Date, are shared).
 * - JSON: a segment is a property name; `*` is every element of an array or property of an object. A named
 *   segment applied to an array is an error (AIP-161 forbids addressing an element by position). With
 *   `names: "json"` a segment `date_created` reads the property `dateCreated` (protoc's lowerCamel JSON name)
 *   and falls back to the literal name when the object lacks the JSON name (map keys and Struct keys stay
 *   literal in proto3 JSON). `__proto__`, `constructor` and `prototype` are ordinary names: only own
 *   properties are read, and `__proto__` is written as an own property.
 *
 * @module
 */

export { fieldMaskProject, fieldMaskProjectEach } from "./field-mask-project.js";
export type { FieldMaskProjectOptions } from "./field-mask-project.js";
export { fieldMaskMerge } from "./field-mask-merge.js";
export type { FieldMaskMergeOptions } from "./field-mask-merge.js";
export { jsonProject, jsonProjectEach, jsonOmit, jsonOmitEach } from "./json-project.js";
export type { JsonProjectOptions, JsonOmitOptions } from "./json-project.js";
export { jsonMerge } from "./json-merge.js";
export type { JsonMergeOptions } from "./json-merge.js";
export { fieldMaskFromPatch } from "./field-mask-from-patch.js";
export type { FieldMaskFromPatchOptions } from "./field-mask-from-patch.js";

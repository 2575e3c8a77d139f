/**
 * FieldMask algebra, projection and update (src/wkt/field-mask.ts, src/mask/field-mask-apply.ts). No other TypeScript
 * library has these, so each case sits beside the obvious code a user writes today for the same mask:
 *
 * - `es`: with @bufbuild/protobuf, by hand: `create()` plus `clone()` / `merge()` of each masked field (only
 *   for messages; protobuf-es has nothing for plain JSON or for masks as values);
 * - `floor`: `structuredClone` plus manual copying (for messages and JSON), or, for normalize/union, the
 *   sort-and-sweep every FieldMask library does (Go's `fieldmaskpb.Normalize`) without our parsing and checks.
 *
 * Both alternatives are written for one fixed mask; ours takes the mask as data. Fixtures: `TestAllTypesProto3`
 * with 50 fields set (scalars, nested messages, lists, maps, Timestamp, Struct, wrappers), masks of 10 paths
 * (a nested path, lists, a map, a message merged), and a ~10 KB migration resource (repositories with owners,
 * permissions, licenses, many URLs), as the migrations service holds it.
 */
import { clone, create, fromJson, merge, type DescMessage, type JsonObject } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { fieldMaskNormalize, fieldMaskUnion } from "../../src/wkt/field-mask.js";
import {
  fieldMaskFromPatch,
  fieldMaskMerge,
  fieldMaskProject,
  jsonMerge,
  jsonOmit,
  jsonProject,
} from "../../src/mask/field-mask-apply.js";
import { TestAllTypesProto3, testRegistry } from "../../test/conformance-registry.js";
import { same } from "../check.js";
import { flat, messageWithEveryField, mulberry32, protoPaths } from "../fixtures.js";
import { sink, type Case } from "../harness.js";

// The fixtures are messages of a descriptor loaded at run time: their fields are untyped.
type Rec = Record<string, any>;

const noTs = "no equivalent";

// ---------------------------------------------------------------------------------------------------------
// Algebra

/** What a user writes to normalize paths: sort, then drop duplicates and paths below the last one kept. */
function sortAndSweep(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort();
  const out: string[] = [];
  let last = "";
  for (const p of sorted) {
    if (out.length > 0 && p.startsWith(last + ".")) continue;
    out.push(p);
    last = p;
  }
  return out;
}

function algebraCases(): Case[] {
  const area = "FieldMask algebra";
  const paths = flat(protoPaths(7, 1000));
  const a = paths.slice(0, 500);
  const b = paths.slice(500);
  same("normalize 1000 paths", fieldMaskNormalize(paths).paths, sortAndSweep(paths));
  same("union 2x500 paths", fieldMaskUnion(a, b).paths, sortAndSweep([...a, ...b]));
  return [
    {
      area,
      name: "normalize/1000-paths",
      ops: 1,
      ours: () => {
        sink.v = fieldMaskNormalize(paths);
      },
      tsNote: noTs,
      floor: { name: "sort+sweep", run: () => void (sink.v = sortAndSweep(paths)) },
    },
    {
      area,
      name: "union/2x500-paths",
      ops: 1,
      ours: () => {
        sink.v = fieldMaskUnion(a, b);
      },
      tsNote: noTs,
      floor: { name: "sort+sweep", run: () => void (sink.v = sortAndSweep([...a, ...b])) },
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Messages

const T3 = TestAllTypesProto3;
const Nested = T3.nestedMessages.find((m) => m.name === "NestedMessage")!;
const Foreign = testRegistry.getMessage("protobuf_test_messages.proto3.ForeignMessage")!;

/** The proto3 JSON names of the 50 fields set in the fixture messages: the mask's 10 and 40 others. */
const masked = [
  "optionalInt32",
  "optionalString",
  "optionalBytes",
  "optionalNestedMessage",
  "repeatedInt32",
  "repeatedNestedMessage",
  "mapStringString",
  "optionalTimestamp",
  "optionalStruct",
  "optionalForeignMessage",
];

const mask = [
  "optional_int32",
  "optional_string",
  "optional_bytes",
  "optional_nested_message.a",
  "repeated_int32",
  "repeated_nested_message",
  "map_string_string",
  "optional_timestamp",
  "optional_struct",
  "optional_foreign_message",
];

function message50(seed: number): Rec {
  const all = messageWithEveryField(T3, seed);
  const json: JsonObject = {};
  for (const k of masked) json[k] = all[k]!;
  for (const k of Object.keys(all)) {
    if (Object.keys(json).length >= 50) break;
    if (!(k in json) && !k.includes("Any") && !k.includes("Value") && k !== "optionalAny") json[k] = all[k]!;
  }
  return fromJson(T3, json, { registry: testRegistry }) as Rec;
}

/** protobuf-es by hand: the masked fields of `m`, copied with clone(). */
function esProject(m: Rec): Rec {
  const out = create(T3) as Rec;
  out.optionalInt32 = m.optionalInt32;
  out.optionalString = m.optionalString;
  out.optionalBytes = m.optionalBytes.slice();
  if (m.optionalNestedMessage !== undefined && m.optionalNestedMessage.a !== 0)
    out.optionalNestedMessage = create(Nested, { a: m.optionalNestedMessage.a });
  out.repeatedInt32 = m.repeatedInt32.slice();
  out.repeatedNestedMessage = m.repeatedNestedMessage.map((x: Rec) => clone(Nested, x as never));
  out.mapStringString = { ...m.mapStringString };
  if (m.optionalTimestamp !== undefined) out.optionalTimestamp = clone(TimestampSchema, m.optionalTimestamp);
  if (m.optionalStruct !== undefined) out.optionalStruct = structuredClone(m.optionalStruct);
  if (m.optionalForeignMessage !== undefined) out.optionalForeignMessage = clone(Foreign, m.optionalForeignMessage);
  return out;
}

/** structuredClone by hand: the masked fields of `m`. */
function cloneProject(m: Rec): Rec {
  const out = create(T3) as Rec;
  out.optionalInt32 = m.optionalInt32;
  out.optionalString = m.optionalString;
  out.optionalBytes = structuredClone(m.optionalBytes);
  if (m.optionalNestedMessage !== undefined && m.optionalNestedMessage.a !== 0)
    out.optionalNestedMessage = { $typeName: Nested.typeName, a: m.optionalNestedMessage.a };
  out.repeatedInt32 = structuredClone(m.repeatedInt32);
  out.repeatedNestedMessage = structuredClone(m.repeatedNestedMessage);
  out.mapStringString = structuredClone(m.mapStringString);
  if (m.optionalTimestamp !== undefined) out.optionalTimestamp = structuredClone(m.optionalTimestamp);
  if (m.optionalStruct !== undefined) out.optionalStruct = structuredClone(m.optionalStruct);
  if (m.optionalForeignMessage !== undefined) out.optionalForeignMessage = structuredClone(m.optionalForeignMessage);
  return out;
}

/** protobuf-es by hand: rule 8 for the mask, with clone() and merge(). */
function esMerge(t: Rec, s: Rec): Rec {
  const out = clone(T3, t as never) as Rec;
  out.optionalInt32 = s.optionalInt32;
  out.optionalString = s.optionalString;
  out.optionalBytes = s.optionalBytes.slice();
  if (s.optionalNestedMessage !== undefined) {
    out.optionalNestedMessage ??= create(Nested);
    out.optionalNestedMessage.a = s.optionalNestedMessage.a;
  } else if (out.optionalNestedMessage !== undefined) out.optionalNestedMessage.a = 0;
  if (s.repeatedInt32.length === 0) out.repeatedInt32 = [];
  else out.repeatedInt32.push(...s.repeatedInt32);
  if (s.repeatedNestedMessage.length === 0) out.repeatedNestedMessage = [];
  else for (const x of s.repeatedNestedMessage) out.repeatedNestedMessage.push(clone(Nested, x));
  if (Object.keys(s.mapStringString).length === 0) out.mapStringString = {};
  else Object.assign(out.mapStringString, s.mapStringString);
  for (const [name, schema] of [
    ["optionalTimestamp", TimestampSchema],
    ["optionalForeignMessage", Foreign],
  ] as [string, DescMessage][]) {
    if (s[name] === undefined) delete out[name];
    else if (out[name] === undefined) out[name] = clone(schema, s[name]);
    else merge(schema, out[name], clone(schema, s[name]));
  }
  if (s.optionalStruct === undefined) delete out.optionalStruct;
  else if (out.optionalStruct === undefined) out.optionalStruct = structuredClone(s.optionalStruct);
  else Object.assign(out.optionalStruct, structuredClone(s.optionalStruct));
  return out;
}

/** structuredClone by hand: rule 8 for the mask. */
function cloneMerge(t: Rec, s: Rec): Rec {
  const out = structuredClone(t);
  out.optionalInt32 = s.optionalInt32;
  out.optionalString = s.optionalString;
  out.optionalBytes = structuredClone(s.optionalBytes);
  if (s.optionalNestedMessage !== undefined) {
    out.optionalNestedMessage ??= { $typeName: Nested.typeName, a: 0 };
    out.optionalNestedMessage.a = s.optionalNestedMessage.a;
  } else if (out.optionalNestedMessage !== undefined) out.optionalNestedMessage.a = 0;
  if (s.repeatedInt32.length === 0) out.repeatedInt32 = [];
  else out.repeatedInt32.push(...s.repeatedInt32);
  if (s.repeatedNestedMessage.length === 0) out.repeatedNestedMessage = [];
  else out.repeatedNestedMessage.push(...structuredClone(s.repeatedNestedMessage));
  if (Object.keys(s.mapStringString).length === 0) out.mapStringString = {};
  else Object.assign(out.mapStringString, s.mapStringString);
  if (s.optionalTimestamp === undefined) delete out.optionalTimestamp;
  else if (out.optionalTimestamp === undefined) out.optionalTimestamp = structuredClone(s.optionalTimestamp);
  else {
    if (s.optionalTimestamp.seconds !== 0n) out.optionalTimestamp.seconds = s.optionalTimestamp.seconds;
    if (s.optionalTimestamp.nanos !== 0) out.optionalTimestamp.nanos = s.optionalTimestamp.nanos;
  }
  if (s.optionalForeignMessage === undefined) delete out.optionalForeignMessage;
  else if (out.optionalForeignMessage === undefined)
    out.optionalForeignMessage = structuredClone(s.optionalForeignMessage);
  else if (s.optionalForeignMessage.c !== 0) out.optionalForeignMessage.c = s.optionalForeignMessage.c;
  if (s.optionalStruct === undefined) delete out.optionalStruct;
  else if (out.optionalStruct === undefined) out.optionalStruct = structuredClone(s.optionalStruct);
  else Object.assign(out.optionalStruct, structuredClone(s.optionalStruct));
  return out;
}

function messageCases(): Case[] {
  const area = "FieldMask apply";
  const m = message50(11);
  const t = message50(12);
  const s = message50(13);
  same("project message-50", fieldMaskProject(T3, m as never, mask), esProject(m));
  same("project message-50 (structuredClone)", fieldMaskProject(T3, m as never, mask), cloneProject(m));
  same("merge message-50", fieldMaskMerge(T3, t as never, s as never, mask), esMerge(t, s));
  same("merge message-50 (structuredClone)", fieldMaskMerge(T3, t as never, s as never, mask), cloneMerge(t, s));
  return [
    {
      area,
      name: "project/message-50-fields",
      ops: 1,
      ours: () => {
        sink.v = fieldMaskProject(T3, m as never, mask);
      },
      es: () => {
        sink.v = esProject(m);
      },
      tsNote: noTs,
      floor: { name: "structuredClone+manual", run: () => void (sink.v = cloneProject(m)) },
    },
    {
      area,
      name: "merge/message-50-fields",
      ops: 1,
      ours: () => {
        sink.v = fieldMaskMerge(T3, t as never, s as never, mask);
      },
      es: () => {
        sink.v = esMerge(t, s);
      },
      tsNote: noTs,
      floor: { name: "structuredClone+manual", run: () => void (sink.v = cloneMerge(t, s)) },
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Plain JSON: a ~10 KB migration resource

function migrationResource(seed: number, bytes: number): Rec {
  const rnd = mulberry32(seed);
  const user = (login: string, id: number): Rec => ({
    login,
    id,
    node_id: `MDQ6VXNlcj${id}`,
    avatar_url: `https://avatars.example.com/u/${id}?v=4`,
    gravatar_id: "",
    url: `https://api.example.com/users/${login}`,
    html_url: `https://example.com/${login}`,
    repos_url: `https://api.example.com/users/${login}/repos`,
    events_url: `https://api.example.com/users/${login}/events{/privacy}`,
    type: "User",
    site_admin: false,
  });
  const repo = (k: number): Rec => {
    const name = `project-${k}-${Math.floor(rnd() * 1e6)}`;
    const url = `https://api.example.com/repos/octocat/${name}`;
    const r: Rec = {
      id: 1296269 + k,
      node_id: `MDEwOlJlcG9zaXRvcnkx${k}`,
      name,
      full_name: `octocat/${name}`,
      owner: user("octocat", 583231),
      private: rnd() < 0.3,
      description: "This your first repo!",
      fork: rnd() < 0.2,
      url,
    };
    for (const rel of [
      "archive",
      "assignees",
      "blobs",
      "branches",
      "collaborators",
      "comments",
      "commits",
      "compare",
      "contents",
      "contributors",
      "deployments",
      "downloads",
      "events",
      "forks",
      "git_commits",
      "git_refs",
      "git_tags",
      "issues",
      "keys",
      "labels",
      "languages",
      "merges",
      "milestones",
      "pulls",
      "releases",
      "stargazers",
      "statuses",
      "subscribers",
      "tags",
      "teams",
      "trees",
      "hooks",
    ]) {
      r[`${rel}_url`] = `${url}/${rel.replace("_", "/")}`;
    }
    Object.assign(r, {
      homepage: "https://example.com",
      language: rnd() < 0.5 ? null : "TypeScript",
      forks_count: Math.floor(rnd() * 100),
      stargazers_count: Math.floor(rnd() * 1000),
      size: Math.floor(rnd() * 1e5),
      default_branch: "main",
      topics: ["octocat", "api"],
      has_issues: true,
      has_wiki: rnd() < 0.5,
      archived: false,
      visibility: "public",
      pushed_at: "2011-01-26T19:06:43Z",
      created_at: "2011-01-26T19:01:12Z",
      updated_at: "2011-01-26T19:14:43Z",
      permissions: { admin: false, push: false, pull: true },
      license: { key: "mit", name: "MIT License", spdx_id: "MIT", url: "https://api.example.com/licenses/mit" },
    });
    return r;
  };
  const m: Rec = {
    id: 79,
    node_id: "MDk6TWlncmF0aW9uNzk=",
    owner: user("octocat", 583231),
    guid: "0b989ba4-242f-11e5-81e1-c7b6966d2516",
    state: "pending",
    lock_repositories: true,
    exclude_attachments: false,
    exclude_releases: false,
    repositories: [],
    url: "https://api.example.com/user/migrations/79",
    created_at: "2015-07-06T15:33:38-07:00",
    updated_at: "2015-07-06T15:46:44-07:00",
  };
  for (let k = 0; JSON.stringify(m).length < bytes; k++) m.repositories.push(repo(k));
  return flat(m);
}

const readMask = [
  "id",
  "state",
  "created_at",
  "repositories.*.full_name",
  "repositories.*.owner.login",
  "repositories.*.private",
  "repositories.*.updated_at",
];
const exclude = ["repositories.*.owner", "repositories.*.permissions", "repositories.*.license"];
const replace = { replaceMessageFields: true, replaceRepeatedFields: true };

function manualProject(r: Rec): Rec {
  return {
    id: r.id,
    state: r.state,
    created_at: r.created_at,
    repositories: r.repositories.map((x: Rec) => ({
      full_name: x.full_name,
      owner: { login: x.owner.login },
      private: x.private,
      updated_at: x.updated_at,
    })),
  };
}

function cloneOmit(r: Rec): Rec {
  const out = structuredClone(r);
  for (const x of out.repositories) {
    delete x.owner;
    delete x.permissions;
    delete x.license;
  }
  return out;
}

function clonePatch(stored: Rec, body: Rec): Rec {
  const out = structuredClone(stored);
  for (const k of Object.keys(body)) out[k] = structuredClone(body[k]);
  return out;
}

function jsonCases(): Case[] {
  const area = "FieldMask apply";
  const resource = migrationResource(21, 10_000);
  const body = flat({
    state: "exporting",
    lock_repositories: false,
    exclude_attachments: true,
    repositories: migrationResource(22, 3000).repositories,
  });
  same("project json-10kb", jsonProject(resource, readMask), manualProject(resource));
  same("omit json-10kb", jsonOmit(resource, exclude), cloneOmit(resource));
  same("merge json-10kb", jsonMerge(resource, body, fieldMaskFromPatch(body), replace), clonePatch(resource, body));
  return [
    {
      area,
      name: "project/json-10kb",
      ops: 1,
      ours: () => {
        sink.v = jsonProject(resource, readMask);
      },
      tsNote: noTs,
      floor: { name: "manual copying", run: () => void (sink.v = manualProject(resource)) },
    },
    {
      area,
      name: "omit/json-10kb",
      ops: 1,
      ours: () => {
        sink.v = jsonOmit(resource, exclude);
      },
      tsNote: noTs,
      floor: { name: "structuredClone+delete", run: () => void (sink.v = cloneOmit(resource)) },
    },
    {
      area,
      name: "merge/json-10kb-patch",
      ops: 1,
      ours: () => {
        sink.v = jsonMerge(resource, body, fieldMaskFromPatch(body), replace);
      },
      tsNote: noTs,
      floor: { name: "structuredClone+manual", run: () => void (sink.v = clonePatch(resource, body)) },
    },
  ];
}

export function fieldMaskApplyCases(): Case[] {
  return [...algebraCases(), ...messageCases(), ...jsonCases()];
}

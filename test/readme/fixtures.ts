// Example data of the README's recipes: every TypeScript block of README.md may use these names (test/readme.test.ts
// gives each block a fresh set, so that no block sees another's changes). The shapes follow the services of
// ../shared/spec/consumers.md: a library API on protobuf-es messages, a code-hosting service's webhooks, events
// and migrations, and a flow-builder service's flows.
import { create, createFileRegistry, type DescMessage, type JsonObject } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, type Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampFromJson, toJson } from "../../src/index.js";
import {
  BookSchema,
  ListBooksRequestSchema,
  ListBooksResponseSchema,
  type Book,
  type ListBooksRequest,
  type ListBooksResponse,
} from "./gen/library_pb.js";

export interface Fixtures {
  /** A Book as the service keeps it. */
  stored: Book;
  /** The same Book in proto3 JSON, for a service that keeps its resources as JSON. */
  storedJson: JsonObject;
  /** A ListBooks request asking for titles only, and the page of Books it is answered from. */
  listRequest: ListBooksRequest;
  page: ListBooksResponse;
  /** An organization webhook. */
  hook: {
    id: number;
    name: string;
    active: boolean;
    events: string[];
    config: { url: string; content_type: string; secret: string; insecure_ssl: string };
    created_at: string;
    updated_at: string;
  };
  /** Activity events of a feed. */
  events: JsonObject[];
  /** User migrations, the first on its own. */
  migration: JsonObject;
  migrations: JsonObject[];
  /** A flow and the form-encoded POST that saves its definition. */
  flow: { sid: string; date_created: string; date_updated: string | null; definition: JsonObject };
  form: URLSearchParams;
  /** A migration's creation time, with a UTC offset. */
  m: { created_at: string };
  /** A webhook delivery: its duration in (fractional) seconds. */
  delivery: { delivered_at: string; duration: number };
  /** An event's creation time, the current time, and the response headers of a rate-limited request. */
  created: Timestamp;
  now: Timestamp;
  headers: Headers;
  /** The number of the retry about to be made (0 for the first). */
  attempt: number;
  /** A request body with a field the service reads by hand (February 30 does not exist). */
  body: { dueAt: string };
  /**
   * A webhook's config after a field was removed and its name reserved:
   * `message HookConfig { string url = 1; reserved 2; reserved "insecure_ssl"; }`.
   */
  HookConfigSchema: DescMessage;
}

export function makeFixtures(): Fixtures {
  const stored = create(BookSchema, {
    name: "books/1",
    title: "The Dispossessed",
    author: { givenName: "Ursula", familyName: "Le Guin" },
    tags: ["sf"],
    publishTime: timestampFromJson("1974-05-01T00:00:00Z"),
    createTime: timestampFromJson("2024-01-15T09:30:00Z"),
    updateTime: timestampFromJson("2024-01-15T09:30:00Z"),
    labels: { shelf: "b3" },
  });
  const second = create(BookSchema, {
    name: "books/2",
    title: "Always Coming Home",
    author: { givenName: "Ursula", familyName: "Le Guin" },
    tags: ["sf", "anthropology"],
  });
  const flow = {
    sid: "FW9d816f0b90d2a10b913868462e339d29",
    date_created: "2017-11-06T12:00:00Z",
    date_updated: null,
    definition: {
      description: "Reminds patients of their appointment",
      flags: { allow_concurrent_calls: true },
      initial_state: "Trigger",
      states: [
        {
          name: "Trigger",
          type: "trigger",
          transitions: [{ event: "incomingCall" }],
          properties: { offset: { x: 0, y: 0 } },
        },
        {
          name: "say_hello",
          type: "say-play",
          transitions: [{ event: "audioComplete" }],
          properties: { loop: 1, say: "Hello" },
        },
      ],
    },
  };
  const now = timestampFromJson("2024-05-01T12:00:00Z");
  const hooks = create(FileDescriptorProtoSchema, {
    name: "hooks.proto",
    package: "acme.hooks.v1",
    syntax: "proto3",
    messageType: [
      {
        name: "HookConfig",
        field: [{ name: "url", number: 1, type: 9, label: 1, jsonName: "url" }],
        reservedRange: [{ start: 2, end: 3 }],
        reservedName: ["insecure_ssl"],
      },
    ],
  });
  return {
    HookConfigSchema: createFileRegistry(hooks, () => undefined).getMessage("acme.hooks.v1.HookConfig")!,
    stored,
    storedJson: toJson(BookSchema, stored) as JsonObject,
    listRequest: create(ListBooksRequestSchema, { pageSize: 2, readMask: { paths: ["title"] } }),
    page: create(ListBooksResponseSchema, { books: [stored, second], nextPageToken: "" }),
    hook: {
      id: 12345678,
      name: "web",
      active: true,
      events: ["push"],
      config: { url: "https://ci.example.com/hook", content_type: "json", secret: "s3cr3t", insecure_ssl: "0" },
      created_at: "2024-03-01T10:00:00Z",
      updated_at: "2024-03-02T11:00:00Z",
    },
    events: [
      {
        id: "101",
        type: "PushEvent",
        actor: { id: 1, login: "octocat" },
        repo: { id: 1296269, name: "octocat/Hello-World" },
        payload: { push_id: 9, commits: [{ sha: "a1b2c3", message: "Fix the build" }] },
        public: true,
        created_at: "2024-04-30T08:00:00Z",
      },
      { id: "102", type: "WatchEvent", actor: { id: 2, login: "hubot" }, payload: { action: "started" }, public: true },
    ],
    migration: {
      id: 79,
      state: "exported",
      repositories: [{ id: 1296269, name: "Hello-World", owner: { login: "octocat" }, permissions: { admin: true } }],
    },
    migrations: [
      { id: 79, state: "exported", repositories: [{ id: 1296269, name: "Hello-World" }] },
      { id: 80, state: "pending", repositories: [] },
    ],
    flow,
    form: new URLSearchParams({
      CommitMessage: "Say hello",
      Definition: JSON.stringify(flow.definition),
      Status: "published",
    }),
    m: { created_at: "2015-07-06T15:33:38-07:00" },
    delivery: { delivered_at: "2024-04-30T08:00:01Z", duration: 0.27 },
    created: timestampFromJson("2024-04-20T08:00:00Z"),
    now,
    headers: new Headers({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Number(now.seconds) + 1800) }),
    attempt: 2,
    body: { dueAt: "2024-02-30T09:00:00Z" },
  };
}

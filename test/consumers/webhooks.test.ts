// The code-hosting service's organization webhooks, deliveries, activity events and rate limits
// (../shared/spec/consumers.md, section 2), end to end on realistic payloads: the two PATCH endpoints as
// schema-aware updates of the stored JSON resource (jsonPatch with webhook.proto: replace vs merge of `config`,
// the secret rule, fields the client may not set), delivery durations, the 90-day / 300-event activity feed with
// free-form payloads, and the rate-limit wait rules.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  durationAdd,
  durationCompare,
  durationFromSeconds,
  durationToJson,
  jsonMerge,
  jsonOmit,
  jsonPatch,
  jsonProject,
  jsonProjectEach,
  structFromJson,
  structToJson,
  timestampAdd,
  timestampCompare,
  timestampDiff,
  timestampFromJson,
  timestampSubtract,
  timestampToJson,
  type DurationLike,
  type JsonPatchOptions,
  type TimestampLike,
  timestampFromSeconds,
} from "../../src/index.js";
import { catchWkt } from "../helpers.js";
import { compileProto } from "../patch/registry.js";

const hooks = compileProto(fileURLToPath(new URL(".", import.meta.url)), "webhook.proto");
const WebhookSchema = hooks.getMessage("octo.hooks.v1.Webhook")!;
const ConfigSchema = hooks.getMessage("octo.hooks.v1.Config")!;

type Json = Record<string, unknown>;

const now = timestampFromJson("2024-05-20T09:30:00Z");
const api = "https://api.example.com/orgs/octo-org/hooks/12345678";

/** The webhook as the service stores it: the secret in clear, never returned as is. */
const stored = Object.freeze({
  type: "Organization",
  id: 12345678,
  name: "web",
  active: true,
  events: ["push", "pull_request"],
  config: Object.freeze({
    url: "https://ci.example.com/hooks/github",
    content_type: "json",
    insecure_ssl: "0",
    secret: "whsec_5f0e8a1c9b7d4e2f",
  }),
  updated_at: "2024-03-14T16:04:51Z",
  created_at: "2023-11-02T08:12:09Z",
  url: api,
  test_url: `${api}/test`,
  ping_url: `${api}/pings`,
  deliveries_url: `${api}/deliveries`,
});

const masked = "********";

/** What GET returns: the secret masked when there is one. */
function present(hook: Json): Json {
  const config = hook.config as Json | undefined;
  return config?.secret === undefined ? hook : jsonMerge(hook, { config: { secret: masked } }, ["config.secret"]);
}

/** The API's JSON is snake_case: proto field names. */
const snake: JsonPatchOptions = { useProtoFieldName: true };

/**
 * PATCH /orgs/{org}/hooks/{hook_id}: only the fields sent change; a sent `config` replaces the stored one
 * (impliedMask "fields"), lists are replaced; fields the client may not set (webhook.proto's OUTPUT_ONLY) are
 * ignored, misspelt or mistyped ones refused. The service then stamps updated_at.
 */
function patchHook(hook: Json, body: Json): Json {
  const updated = jsonPatch(WebhookSchema, hook as never, body as never, { ...snake, impliedMask: "fields" });
  return { ...updated, updated_at: timestampToJson(now) };
}

/** PATCH /orgs/{org}/hooks/{hook_id}/config: only the config properties sent change. */
function patchConfig(hook: Json, body: Json): Json {
  const config = jsonPatch(ConfigSchema, hook.config as never, body as never, snake);
  if (typeof config.insecure_ssl === "number") config.insecure_ssl = String(config.insecure_ssl); // "0" | "1", sent either way
  return { ...hook, config, updated_at: timestampToJson(now) };
}

describe("webhook PATCH: the whole config is replaced", () => {
  it("removes the secret when config is sent without it", () => {
    const body = {
      active: true,
      events: ["pull_request", "push", "issues"],
      config: { url: "https://ci.example.com/v2/hooks", content_type: "form" },
    };
    const updated = patchHook(stored, body);
    expect(updated.config).toEqual({ url: "https://ci.example.com/v2/hooks", content_type: "form" });
    expect(updated.events).toEqual(["pull_request", "push", "issues"]); // replaced, not appended
    expect(updated.updated_at).toBe("2024-05-20T09:30:00Z");
    expect(jsonOmit(updated, ["config", "events", "updated_at"])).toEqual(
      jsonOmit(stored, ["config", "events", "updated_at"]),
    );
    expect(present(updated).config).toEqual({ url: "https://ci.example.com/v2/hooks", content_type: "form" });
  });

  it("keeps the secret when it is sent again", () => {
    const body = { config: { url: "https://ci.example.com/v2/hooks", content_type: "json", secret: "whsec_new" } };
    expect((patchHook(stored, body).config as Json).secret).toBe("whsec_new");
  });

  it("leaves config alone when it is not sent", () => {
    const updated = patchHook(stored, { active: false });
    expect(updated.config).toEqual(stored.config);
    expect(updated.active).toBe(false);
    expect(present(updated).config).toEqual({ ...stored.config, secret: masked });
  });

  it("never changes the stored resource", () => {
    patchHook(stored, { config: { url: "https://ci.example.com/x" }, events: [] });
    expect(stored.config.secret).toBe("whsec_5f0e8a1c9b7d4e2f");
  });

  it("ignores what the client may not set, and refuses what is not a webhook field", () => {
    const updated = patchHook(stored, {
      active: false,
      id: 1,
      url: "https://attacker.example.com",
      created_at: "2000-01-01T00:00:00Z",
    });
    expect(jsonOmit(updated, ["active", "updated_at"])).toEqual(jsonOmit(stored, ["active", "updated_at"]));
    // jsonMerge would have stored these as they came.
    expect(catchWkt(() => patchHook(stored, { actve: false }))).toMatchObject({
      rule: "unknown-field",
      jsonPath: "$.actve",
    });
    expect(catchWkt(() => patchHook(stored, { events: "push" }))).toMatchObject({
      rule: "json-type",
      jsonPath: "$.events",
    });
    expect(
      catchWkt(() => patchHook(stored, { config: { url: "https://x.example.com", content_type: 1 } })),
    ).toMatchObject({ rule: "json-type", jsonPath: "$.config.content_type" });
    expect(catchWkt(() => patchHook(stored, { name: "email" }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.name",
    });
  });

  it("a sent config must have its url (REQUIRED): the replacement may not clear it", () => {
    expect(catchWkt(() => patchHook(stored, { config: { content_type: "form" } }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.config.url",
    });
  });
});

describe("config PATCH: only the sent properties change", () => {
  it("merges into the stored config; the secret stays", () => {
    const updated = patchConfig(stored, { content_type: "form", insecure_ssl: 1 });
    expect(updated.config).toEqual({
      url: stored.config.url,
      content_type: "form",
      insecure_ssl: "1",
      secret: stored.config.secret,
    });
    expect(present(updated).config).toEqual({
      url: stored.config.url,
      content_type: "form",
      insecure_ssl: "1",
      secret: masked,
    });
    expect(jsonOmit(updated, ["config", "updated_at"])).toEqual(jsonOmit(stored, ["config", "updated_at"]));
  });

  it("accepts insecure_ssl as a string too, and a new secret", () => {
    const updated = patchConfig(stored, { insecure_ssl: "1", secret: "whsec_rotated" });
    expect(updated.config).toMatchObject({ insecure_ssl: "1", secret: "whsec_rotated", url: stored.config.url });
  });

  it("the two PATCHes differ exactly in replace vs merge of config", () => {
    const body = { config: { url: stored.config.url, content_type: "form" } };
    expect((patchHook(stored, body).config as Json).secret).toBeUndefined();
    expect((patchConfig(stored, body.config).config as Json).secret).toBe(stored.config.secret);
  });

  it("refuses a config property that does not exist", () => {
    expect(catchWkt(() => patchConfig(stored, { content_typ: "form" }))).toMatchObject({
      rule: "unknown-field",
      jsonPath: "$.content_typ",
    });
  });
});

describe("deliveries", () => {
  const deliveries = [
    {
      id: 93876112,
      guid: "0b989ba4-242f-11e5-81e1-c7b6966d2516",
      delivered_at: "2024-05-20T09:12:31Z",
      redelivery: false,
      duration: 0.27,
      status: "OK",
      status_code: 200,
      event: "push",
      action: null,
      installation_id: null,
      repository_id: 1296269,
      throttled_at: null,
    },
    {
      id: 93876113,
      guid: "2c2d3e44-242f-11e5-81e1-c7b6966d2516",
      delivered_at: "2024-05-20T09:14:02Z",
      redelivery: true,
      duration: 10.031,
      status: "Timed out",
      status_code: 0,
      event: "pull_request",
      action: "opened",
      installation_id: null,
      repository_id: 1296269,
      throttled_at: "2024-05-20T09:13:55Z",
    },
    {
      id: 93876114,
      guid: "4e5f6a77-242f-11e5-81e1-c7b6966d2516",
      delivered_at: "2024-05-20T09:20:47Z",
      redelivery: false,
      duration: 0.005,
      status: "OK",
      status_code: 202,
      event: "issues",
      action: "closed",
      installation_id: null,
      repository_id: 1296270,
      throttled_at: null,
    },
  ];

  it("reads duration seconds as Durations, exactly", () => {
    const durations = deliveries.map((d) => durationFromSeconds(d.duration));
    expect(durations.map((d) => durationToJson(d))).toEqual(["0.270s", "10.031s", "0.005s"]);
    const total = durations.reduce<DurationLike>((a, b) => durationAdd(a, b), durationFromSeconds(0));
    expect(durationToJson(total)).toBe("10.306s");
  });

  it("computes when each delivery finished, and whether it was throttled", () => {
    const finished = deliveries.map((d) =>
      timestampToJson(timestampAdd(timestampFromJson(d.delivered_at), durationFromSeconds(d.duration))),
    );
    expect(finished).toEqual(["2024-05-20T09:12:31.270Z", "2024-05-20T09:14:12.031Z", "2024-05-20T09:20:47.005Z"]);
    const throttled = deliveries.filter((d) => d.throttled_at !== null).map((d) => timestampFromJson(d.throttled_at));
    expect(throttled.map((t) => timestampToJson(t))).toEqual(["2024-05-20T09:13:55Z"]);
  });

  it("lists deliveries through a read mask", () => {
    expect(jsonProjectEach(deliveries, ["id", "status_code", "delivered_at"])[1]).toEqual({
      id: 93876113,
      status_code: 0,
      delivered_at: "2024-05-20T09:14:02Z",
    });
  });
});

describe("the activity feed: 90 days, 300 events", () => {
  const types = ["PushEvent", "WatchEvent", "CreateEvent"] as const;
  function payload(type: (typeof types)[number], i: number): Json {
    switch (type) {
      case "PushEvent":
        return {
          repository_id: 1296269,
          push_id: 10115855396 + i,
          size: 2,
          distinct_size: 2,
          ref: "refs/heads/main",
          head: "7a8f3ac80e2ad2f6842cb86f576d4bfe2c03e300",
          before: "883efe034920928c47fe18598c01249d1a9fdabd",
          commits: [
            {
              sha: "7a8f3ac80e2ad2f6842cb86f576d4bfe2c03e300",
              author: { email: "octocat@example.com", name: "Monalisa Octocat" },
              message: "Fix the build\n\nCloses #42",
              distinct: true,
              url: "https://api.example.com/repos/octo-org/hello/commits/7a8f3ac",
            },
            {
              sha: "b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0",
              author: { email: "hubot@example.com", name: "Hubot" },
              message: "Bump deps",
              distinct: true,
              url: "https://api.example.com/repos/octo-org/hello/commits/b1c2d3e",
            },
          ],
        };
      case "WatchEvent":
        return { action: "started" };
      case "CreateEvent":
        return {
          ref: `release-${i}`,
          ref_type: "branch",
          master_branch: "main",
          description: null,
          pusher_type: "user",
        };
    }
  }
  // 400 events, newest first, one every 7 hours: the oldest is about 117 days old.
  const events = Array.from({ length: 400 }, (_, i) => {
    const type = types[i % 3]!;
    return {
      id: String(38000000000 + 400 - i),
      type,
      actor: {
        id: 583231,
        login: "octocat",
        display_login: "octocat",
        gravatar_id: "",
        url: "https://api.example.com/users/octocat",
        avatar_url: "https://avatars.example.com/u/583231?",
      },
      repo: { id: 1296269, name: "octo-org/hello-world", url: "https://api.example.com/repos/octo-org/hello-world" },
      payload: payload(type, i),
      public: true,
      created_at: timestampToJson(timestampSubtract(now, durationFromSeconds(i * 7 * 3600 + 1))),
    };
  });

  it("keeps at most 300 events created within the last 90 days", () => {
    const windowStart = timestampSubtract(now, durationFromSeconds(90 * 24 * 3600));
    const feed = events
      .filter((e) => timestampCompare(timestampFromJson(e.created_at), windowStart) >= 0)
      .slice(0, 300);
    expect(feed).toHaveLength(300); // 309 events are in the window; the cap cuts the oldest
    expect(timestampCompare(timestampFromJson(feed[299]!.created_at), windowStart)).toBe(1);
    const inWindow = events.filter((e) => timestampCompare(timestampFromJson(e.created_at), windowStart) >= 0);
    expect(inWindow).toHaveLength(309);
    expect(timestampToJson(windowStart)).toBe("2024-02-20T09:30:00Z");
  });

  it("holds every payload shape as a Struct, unchanged", () => {
    for (const e of events.slice(0, 3)) {
      const struct = structFromJson(e.payload);
      expect(structToJson(struct)).toEqual(e.payload);
    }
  });

  it("serves the feed through a read mask", () => {
    const page = jsonProjectEach(events.slice(0, 2), [
      "id",
      "type",
      "actor.login",
      "repo.name",
      "created_at",
      "payload.commits.*.sha",
    ]);
    expect(page).toEqual([
      {
        id: "38000000400",
        type: "PushEvent",
        actor: { login: "octocat" },
        repo: { name: "octo-org/hello-world" },
        created_at: "2024-05-20T09:29:59Z",
        payload: {
          commits: [
            { sha: "7a8f3ac80e2ad2f6842cb86f576d4bfe2c03e300" },
            { sha: "b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0" },
          ],
        },
      },
      {
        id: "38000000399",
        type: "WatchEvent",
        actor: { login: "octocat" },
        repo: { name: "octo-org/hello-world" },
        created_at: "2024-05-20T02:29:59Z",
      },
    ]);
    expect(jsonProject(events[0]!, ["payload.commits.*.author.name"]).payload).toEqual({
      commits: [{ author: { name: "Monalisa Octocat" } }, { author: { name: "Hubot" } }],
    });
  });
});

describe("rate limits", () => {
  const zero = durationFromSeconds(0);

  /**
   * How long to wait before retry number `attempt` (0 for the first): `retry-after` when present; else, when
   * no request is left, until `x-ratelimit-reset`; else at least a minute, doubling with each retry.
   */
  function retryDelay(headers: Headers, at: TimestampLike, attempt: number): DurationLike {
    const retryAfter = headers.get("retry-after");
    if (retryAfter !== null) return durationFromSeconds(Number(retryAfter));
    if (headers.get("x-ratelimit-remaining") === "0") {
      // A missing header is an error (rule json-type), not 1970 as Number(null) * 1000 made it.
      const reset = timestampFromSeconds(headers.get("x-ratelimit-reset") as string);
      const untilReset = timestampDiff(reset, at);
      return durationCompare(untilReset, zero) > 0 ? untilReset : zero;
    }
    return durationFromSeconds(60 * 2 ** attempt);
  }

  const epoch = (t: string) => String(Number(timestampFromJson(t).seconds));

  it.each([
    [
      "retry-after wins",
      { "retry-after": "30", "x-ratelimit-remaining": "0", "x-ratelimit-reset": epoch("2024-05-20T10:00:00Z") },
      0,
      "30s",
    ],
    [
      "until the reset time",
      {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-used": "5000",
        "x-ratelimit-reset": epoch("2024-05-20T09:47:13Z"),
      },
      0,
      "1033s",
    ],
    [
      "a reset already past",
      { "x-ratelimit-remaining": "0", "x-ratelimit-reset": epoch("2024-05-20T09:29:00Z") },
      3,
      "0s",
    ],
    ["a secondary limit: one minute", { "x-ratelimit-remaining": "4890" }, 0, "60s"],
    ["then longer", { "x-ratelimit-remaining": "4890" }, 1, "120s"],
    ["and longer", {}, 4, "960s"],
  ])("%s", (_, headers, attempt, wait) => {
    const delay = retryDelay(new Headers(headers), now, attempt);
    expect(durationToJson(delay)).toBe(wait);
    // When to try again, as the client schedules it.
    expect(timestampCompare(timestampAdd(now, delay), now)).toBe(wait === "0s" ? 0 : 1);
  });

  it("schedules the retry at the reset instant", () => {
    const reset = "2024-05-20T09:47:13Z";
    const delay = retryDelay(new Headers({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": epoch(reset) }), now, 0);
    expect(timestampToJson(timestampAdd(now, delay))).toBe(reset);
  });
});

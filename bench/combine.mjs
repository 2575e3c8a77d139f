// One table for the results of several runtimes (bench/run.mjs runs bench/main.ts once per runtime, each
// writing the JSON of `--json`): for every case, per runtime, our time and the ratios ours/protobuf-es,
// ours/protobuf-ts and ours/floor, with the targets met or missed on each runtime. Used by bench/run.mjs (plain
// text) and bench/markdown.mjs (README Markdown).

/** 3 significant digits in a unit that keeps the number below 1000. */
export function formatNs(x) {
  if (x === undefined) return "—";
  if (x < 1e3) return `${x.toPrecision(3)} ns`;
  if (x < 1e6) return `${(x / 1e3).toPrecision(3)} µs`;
  if (x < 1e9) return `${(x / 1e6).toPrecision(3)} ms`;
  return `${(x / 1e9).toPrecision(3)} s`;
}

const ratio = (r) => (r === undefined ? "—" : r.toFixed(2));

/** The runtime's label: "Node 20", "Node 24". */
export function runtimeLabel(doc) {
  return `Node ${doc.meta.node.replace(/^v/, "").split(".")[0]}`;
}

/**
 * Rows of the combined table: [{ area, name, floorName, tsNote, per: [case result or undefined per runtime] }],
 * in the order of the first runtime's cases.
 */
export function combinedRows(docs) {
  const byKey = docs.map((d) => new Map(d.cases.map((c) => [`${c.area}\u0000${c.name}`, c])));
  const keys = [];
  const seen = new Set();
  for (const d of docs) {
    for (const c of d.cases) {
      const k = `${c.area}\u0000${c.name}`;
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
    }
  }
  return keys.map((k) => {
    const per = byKey.map((m) => m.get(k));
    const any = per.find((c) => c !== undefined);
    return { area: any.area, name: any.name, floorName: any.floorName, tsNote: any.tsNote, per };
  });
}

/** Cases slower than protobuf-es or protobuf-ts on some runtime, and targets missed: lines of text. */
export function behind(docs) {
  const out = [];
  for (const row of combinedRows(docs)) {
    row.per.forEach((c, i) => {
      if (c === undefined) return;
      const where = `${runtimeLabel(docs[i])} ${row.area} ${row.name}`;
      if (c.ratio.es !== undefined && c.ratio.es > 1) out.push(`${where}: ours/es ${c.ratio.es.toFixed(2)}`);
      if (c.ratio.ts !== undefined && c.ratio.ts > 1) out.push(`${where}: ours/ts ${c.ratio.ts.toFixed(2)}`);
      for (const t of c.targets) if (!t.met) out.push(`${where}: target ${t.label} missed (${t.ratio?.toFixed(2)})`);
    });
  }
  return out;
}

/** The plain-text table (what bench/run.mjs prints at the end). */
export function combinedText(docs) {
  const labels = docs.map(runtimeLabel);
  const header = ["case", ...labels.flatMap((l) => [`${l} ours`, "/es", "/ts", "/floor"]), "targets"];
  const rows = [];
  let area = "";
  for (const row of combinedRows(docs)) {
    if (row.area !== area) {
      area = row.area;
      rows.push([area]);
    }
    const cells = [`  ${row.name}`];
    const targets = new Map();
    row.per.forEach((c, i) => {
      if (c === undefined) {
        cells.push("—", "—", "—", "—");
        return;
      }
      const es = c.ratio.es === undefined ? "—" : `${ratio(c.ratio.es)}${c.ratio.es > 1 ? "!" : ""}`;
      const ts =
        c.ratio.ts === undefined
          ? c.tsNote !== undefined
            ? "n/a"
            : "—"
          : `${ratio(c.ratio.ts)}${c.ratio.ts > 1 ? "!" : ""}`;
      cells.push(formatNs(c.ns.ours), es, ts, ratio(c.ratio.floor));
      for (const t of c.targets) {
        const list = targets.get(t.label) ?? [];
        if (!t.met) list.push(labels[i]);
        targets.set(t.label, list);
      }
    });
    cells.push(
      [...targets]
        .map(([label, missed]) => `${missed.length === 0 ? "met" : `MISSED on ${missed.join(", ")}`} ${label}`)
        .join("; "),
    );
    rows.push(cells);
  }
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.filter((r) => r.length > 1).map((r) => (r[i] ?? "").length)),
  );
  const line = (cells) =>
    cells
      .map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join("  ")
      .trimEnd();
  const out = [line(header), line(widths.map((w) => "-".repeat(w)))];
  for (const r of rows) out.push(r.length === 1 ? r[0] : line(r));
  return out.join("\n");
}

/** The Markdown table of README.md "Performance". */
export function combinedMarkdown(docs) {
  const labels = docs.map(runtimeLabel);
  const head = [
    "case",
    ...labels.flatMap((l) => [`${l}: wkt-json`, "vs protobuf-es", "vs protobuf-ts", "vs floor"]),
    "target",
  ];
  const rows = [`| ${head.join(" | ")} |`, `|---|${labels.map(() => "---:|---:|---:|---:|").join("")}---|`];
  let area = "";
  const blank = head
    .slice(1)
    .map(() => "")
    .join(" | ");
  for (const row of combinedRows(docs)) {
    if (row.area !== area) {
      area = row.area;
      rows.push(`| **${area}** | ${blank} |`);
    }
    const cells = [row.name];
    const targets = new Map();
    row.per.forEach((c, i) => {
      if (c === undefined) {
        cells.push("—", "—", "—", "—");
        return;
      }
      // Speed-up (other's time over ours): above 1 is faster; bold when slower.
      const speed = (r) => (r === undefined ? "—" : r > 1 ? `**${(1 / r).toFixed(2)}x**` : `${(1 / r).toFixed(2)}x`);
      const ts = c.ratio.ts === undefined ? (c.tsNote ?? "—") : speed(c.ratio.ts);
      const floor = c.ratio.floor === undefined ? "—" : `${ratio(c.ratio.floor)} (${c.floorName})`;
      cells.push(formatNs(c.ns.ours), speed(c.ratio.es), ts, floor);
      for (const t of c.targets) {
        const list = targets.get(t.label) ?? [];
        list.push(t.met ? "met" : `**missed** on ${labels[i]}`);
        targets.set(t.label, list);
      }
    });
    const target = [...targets].map(([label, list]) => {
      const missed = list.filter((x) => x !== "met");
      return `${label.replace(" vs es", "")}: ${missed.length === 0 ? "met" : missed.join(", ")}`;
    });
    cells.push(target.join("; "));
    rows.push(`| ${cells.join(" | ")} |`);
  }
  return rows.join("\n");
}

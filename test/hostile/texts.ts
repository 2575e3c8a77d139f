// JSON texts of a given size in the shapes the linear-time checks read (linear.test.ts, json-text-linear.test.ts).

/** `open`, then copies of `piece` joined by `sep` up to about `size` code units, then `close`. */
export function repeatToSize(open: string, piece: string, close: string, size: number, sep = ","): string {
  return (
    open +
    Array(Math.max(1, Math.floor(size / (piece.length + sep.length))))
      .fill(piece)
      .join(sep) +
    close
  );
}

/** An object of the members `member(0)`, `member(1)`, ... (each distinct) up to about `size` code units. */
export function wideObject(size: number, member: (k: number) => string): string {
  const members: string[] = [];
  let length = 2;
  for (let k = 0; length < size; k++) {
    const m = member(k);
    members.push(m);
    length += m.length + 1;
  }
  return "{" + members.join(",") + "}";
}

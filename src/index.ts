export { WktJsonError, isWktJsonError } from "./errors.js";
export type { WktRule } from "./errors.js";
export { pathJoin, pathSegment } from "./path.js";
export type { PathSegment } from "./path.js";
export * from "./limits.js";
export { int64From } from "./int64.js";
export type { Int64Like, Int64FromOptions } from "./int64.js";

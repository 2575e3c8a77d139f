/**
 * Every case of `npm run bench`, in table order. A new area is one file here exporting a function that builds
 * its cases (checking equal output first) and one line below.
 *
 * FieldMask project/merge (src/field-mask-apply.ts, being written): add `bench/cases/field-mask-apply.ts` with
 * cases named `project/<fixture>` and `merge/<fixture>` beside protobuf-es's equivalent, and list it here.
 */
import type { Case } from "../harness.js";
import { durationCases } from "./duration.js";
import { fieldMaskCases } from "./field-mask.js";
import { jsonTextCases } from "./json-text.js";
import { wholeMessageCases } from "./message.js";
import { structCases } from "./struct.js";
import { timestampCases } from "./timestamp.js";
import { wrappersCases } from "./wrappers.js";

export const caseBuilders: readonly (() => Case[])[] = [
  timestampCases,
  durationCases,
  fieldMaskCases,
  structCases,
  wrappersCases,
  wholeMessageCases,
  jsonTextCases,
];

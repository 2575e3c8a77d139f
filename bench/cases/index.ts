/**
 * Every case of `npm run bench`, in table order. A new area is one file here exporting a function that builds
 * its cases (checking equal output first) and one line below.
 */
import type { Case } from "../harness.js";
import { durationCases } from "./duration.js";
import { fieldMaskCases } from "./field-mask.js";
import { fieldMaskApplyCases } from "./field-mask-apply.js";
import { flowCases } from "./flow.js";
import { jsonTextCases } from "./json-text.js";
import { anyCases, wholeMessageCases } from "./message.js";
import { perCallCases } from "./per-call.js";
import { structCases } from "./struct.js";
import { timestampCases } from "./timestamp.js";
import { wrappersCases } from "./wrappers.js";

export const caseBuilders: readonly (() => Case[])[] = [
  timestampCases,
  durationCases,
  fieldMaskCases,
  fieldMaskApplyCases,
  structCases,
  wrappersCases,
  perCallCases,
  wholeMessageCases,
  flowCases,
  anyCases,
  jsonTextCases,
];

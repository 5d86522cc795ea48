import * as z from 'zod';

/**
 * The part of a SARIF 2.1.0 log that Quorum reads, as a zod schema: every object is open (tools add their own
 * properties), and only the properties read are checked. Written from the OASIS spec
 * (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html, §3.13 sarifLog, §3.14 run, §3.19 toolComponent,
 * §3.27 result, §3.28 location, §3.29 physicalLocation, §3.30 region, §3.49 reportingDescriptor) and from what real
 * tools write, which the spec allows and a reader must take:
 * - Ruff (astral-sh/ruff crates/ruff_linter/src/message/sarif.rs): `ruleId: null` for a syntax error,
 *   `fullDescription.text: null` and `helpUri: null` on rules, absolute `file://` URIs;
 * - ESLint (microsoft/sarif-js-sdk packages/eslint-formatter-sarif/sarif.js): no `region` for a file-level message,
 *   `ruleIndex` without rules when ESLint gave no rule metadata, `suppressions` for disabled messages;
 * - Semgrep (semgrep/semgrep src/osemgrep/reporting/Sarif_output.ml): relative URIs with `uriBaseId: "%SRCROOT%"`
 *   and no `originalUriBaseIds`, CWE in the rule's `properties.tags` ("CWE-89: Improper Neutralization …"),
 *   `suppressions` for `nosemgrep`;
 * - CodeQL: CWE tags as `external/cwe/cwe-089`, rules of extensions (`rule.toolComponent.index`).
 */

const text = z.string().max(100_000);
/** A `message` or `multiformatMessageString`: its text, when there is one (Ruff writes null). */
const messageSchema = z.looseObject({ text: text.nullish(), id: z.string().max(400).nullish(), arguments: z.array(z.string().max(10_000)).max(100).nullish() });
const line = z.number().int().positive();

const artifactLocationSchema = z.looseObject({
  uri: z.string().max(8_000).nullish(),
  uriBaseId: z.string().max(400).nullish(),
  index: z.number().int().min(-1).nullish(),
});

const regionSchema = z.looseObject({
  startLine: line.nullish(),
  endLine: line.nullish(),
});

const locationSchema = z.looseObject({
  physicalLocation: z.looseObject({ artifactLocation: artifactLocationSchema.nullish(), region: regionSchema.nullish() }).nullish(),
});

const propertiesSchema = z.looseObject({ tags: z.array(z.unknown()).max(500).nullish(), cwe: z.unknown().optional() }).nullish();

const ruleSchema = z.looseObject({
  id: z.string().max(400),
  name: z.string().max(400).nullish(),
  shortDescription: messageSchema.nullish(),
  messageStrings: z.record(z.string(), messageSchema).nullish(),
  defaultConfiguration: z.looseObject({ level: z.string().max(40).nullish() }).nullish(),
  properties: propertiesSchema,
});

const toolComponentSchema = z.looseObject({
  name: z.string().max(400),
  rules: z.array(ruleSchema).max(100_000).nullish(),
});

const resultSchema = z.looseObject({
  ruleId: z.string().max(400).nullish(),
  ruleIndex: z.number().int().min(-1).nullish(),
  rule: z.looseObject({ id: z.string().max(400).nullish(), index: z.number().int().min(-1).nullish(), toolComponent: z.looseObject({ index: z.number().int().min(-1).nullish() }).nullish() }).nullish(),
  kind: z.string().max(40).nullish(),
  level: z.string().max(40).nullish(),
  message: messageSchema,
  locations: z.array(locationSchema).max(1_000).nullish(),
  suppressions: z.array(z.looseObject({ status: z.string().max(40).nullish() })).max(100).nullish(),
  properties: propertiesSchema,
});

const runSchema = z.looseObject({
  tool: z.looseObject({ driver: toolComponentSchema, extensions: z.array(toolComponentSchema).max(1_000).nullish() }),
  originalUriBaseIds: z.record(z.string(), z.looseObject({ uri: z.string().max(8_000).nullish() })).nullish(),
  artifacts: z.array(z.looseObject({ location: artifactLocationSchema.nullish() })).max(1_000_000).nullish(),
  results: z.array(resultSchema).max(1_000_000).nullish(),
});

export const sarifLogSchema = z.looseObject({
  version: z.literal('2.1.0', 'version is not 2.1.0 (only SARIF 2.1.0 is read)'),
  runs: z.array(runSchema).max(1_000),
});

export type SarifRun = z.infer<typeof runSchema>;
export type SarifResult = z.infer<typeof resultSchema>;
export type SarifRule = z.infer<typeof ruleSchema>;

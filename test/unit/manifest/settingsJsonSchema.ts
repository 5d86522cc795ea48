import * as z from 'zod';
import { settingsSchema } from '../../../src/core/settings/schema';

/**
 * The JSON schema that package.json's `contributes.configuration` must hold for each `quorum.*` setting,
 * derived from the one zod schema. A "leaf" is a value VS Code stores as one setting: a scalar, a list,
 * or a record (an object without fixed properties). `anyOf [ '' | X ]` becomes a string pattern `^$|X`,
 * which VS Code's settings editor can edit in place.
 */
export type JsonSchema = { [key: string]: unknown };

function isRecord(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function normalize(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(normalize);
  if (!isRecord(schema)) return schema;
  const anyOf = schema.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && isRecord(anyOf[0]) && anyOf[0].const === '' && isRecord(anyOf[1])) {
    const other = anyOf[1];
    const { anyOf: _drop, ...rest } = schema;
    const out: JsonSchema = { ...rest, type: 'string', pattern: `^$|${String(other.pattern)}` };
    if (other.maxLength !== undefined) out.maxLength = other.maxLength;
    return out;
  }
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) out[k] = normalize(v);
  return out;
}

/** Every leaf setting as `quorum.<dotted path>` → its normalized JSON schema. */
export function settingLeaves(): Map<string, JsonSchema> {
  const root = z.toJSONSchema(settingsSchema, { io: 'input' });
  const leaves = new Map<string, JsonSchema>();
  const walk = (node: JsonSchema, path: string[]): void => {
    const props = node.properties;
    if (node.type === 'object' && isRecord(props) && path.length >= 0 && node.additionalProperties === undefined) {
      for (const [k, v] of Object.entries(props)) if (isRecord(v)) walk(v, [...path, k]);
      return;
    }
    leaves.set(['quorum', ...path].join('.'), normalize(node) as JsonSchema);
  };
  walk(root, []);
  return leaves;
}

/** Keys that only describe a setting to people; everything else must match the zod schema exactly. */
export const DESCRIPTIVE_KEYS = ['markdownDescription', 'description', 'patternErrorMessage', 'order', 'scope', 'enumDescriptions', 'markdownEnumDescriptions', 'editPresentation', 'tags'];

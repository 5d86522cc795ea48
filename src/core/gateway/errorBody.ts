import { field, isRecord } from '../../shared/guards';

/**
 * Reading an error body in every shape gateways document, for its message, its `type`/`code` and the request
 * fields it names:
 *  - OpenAI: `{"error":{"message","type","param","code"}}` (and every relay that copies it: one-api, new-api,
 *    LiteLLM, OpenRouter with `metadata.raw`, Groq, DeepSeek, Azure with `code: "429"`);
 *  - a bare string in `error` (LM Studio: `{"error":"…"}`; Ollama's native routes);
 *  - a top-level array of those (Google's Gemini endpoints: `[{"error":{"code":400,"message","status"}}]`);
 *  - a flat `{"object":"error","message","type","param","code"}` (vLLM, Mistral), where `message` may be an
 *    object or a JSON string holding a pydantic `detail` list (Mistral: `{"detail":[{"type":"extra_forbidden",
 *    "loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]}`), or a Python repr of one (vLLM);
 *  - FastAPI's `{"detail":[…]}` or `{"detail":"…"}`, and relays' `{"code":1,"msg":"…"}` or `{"message":"…"}`.
 * The message is kept whole (request ids appended by relays stay in it).
 */
export interface ErrorBody {
  message: string;
  type?: string;
  code?: string | number;
  status?: number;
  /** The request field the error names: OpenAI's `param`, or the last part of a pydantic `loc`. */
  param?: string;
  /** Every request field named by a `loc` (pydantic) or `field` (Google) of the body. */
  fields: string[];
  /** Usage reported with the error (the model ran). */
  usage?: unknown;
}

const NO_DETAILS = 'the gateway sent an error without details';
const MAX_DEPTH = 5;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function codeOf(v: unknown): string | number | undefined {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : undefined;
}

/** A string that holds JSON (Mistral's older bodies put a JSON document in `message`). */
function parsedJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/** The request fields a pydantic `loc` list names, in a parsed list or a Python repr (vLLM: `'loc': ('body', 'x')`). */
function locFields(value: unknown, text: string | undefined): string[] {
  const out: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const loc = field(item, 'loc');
      if (Array.isArray(loc)) {
        const names = loc.filter((p): p is string => typeof p === 'string' && p !== 'body');
        if (names.length > 0) out.push(names.join('.'));
      }
      const googleField = str(field(item, 'field'));
      if (googleField) out.push(googleField);
    }
  }
  if (text) {
    for (const m of text.matchAll(/'loc':\s*[([]\s*'body',\s*'([A-Za-z_][\w.]*)'/g)) if (m[1]) out.push(m[1]);
  }
  return out;
}

/** A pydantic `detail` list as one line: `stream_options: Extra inputs are not permitted`. */
function detailText(list: unknown[]): string | undefined {
  const parts: string[] = [];
  for (const item of list) {
    const msg = str(field(item, 'msg')) ?? str(field(item, 'message')) ?? str(field(item, 'description'));
    if (!msg) continue;
    const loc = field(item, 'loc');
    const where = Array.isArray(loc) ? loc.filter((p) => p !== 'body').map(String).join('.') : str(field(item, 'field'));
    parts.push(where ? `${where}: ${msg}` : msg);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function merge(into: ErrorBody, from: ErrorBody): ErrorBody {
  return {
    message: from.message,
    fields: [...from.fields, ...into.fields],
    ...((from.type ?? into.type) !== undefined ? { type: from.type ?? into.type } : {}),
    ...((from.code ?? into.code) !== undefined ? { code: from.code ?? into.code } : {}),
    ...((from.status ?? into.status) !== undefined ? { status: from.status ?? into.status } : {}),
    ...((from.param ?? into.param) !== undefined ? { param: from.param ?? into.param } : {}),
    ...((from.usage ?? into.usage) !== undefined ? { usage: from.usage ?? into.usage } : {}),
  };
}

/** The message of a `message`/`detail` value: a string (maybe JSON inside), a detail list, or an object. */
function messageOf(value: unknown, depth: number): ErrorBody | undefined {
  if (typeof value === 'string') {
    const inner = parsedJson(value);
    const nested = inner !== undefined ? readAt(inner, depth + 1) : undefined;
    if (nested && nested.message !== NO_DETAILS) return nested;
    return str(value) ? { message: value.trim(), fields: locFields(undefined, value) } : undefined;
  }
  if (Array.isArray(value)) {
    const text = detailText(value);
    if (text) return { message: text, fields: locFields(value, undefined) };
    return value.length > 0 ? readAt(value[0], depth + 1) : undefined;
  }
  return isRecord(value) ? readAt(value, depth + 1) : undefined;
}

function readObject(o: Record<string, unknown>, depth: number): ErrorBody {
  const status = typeof o.status === 'number' ? o.status : typeof o.code === 'number' && o.code >= 400 && o.code < 600 ? o.code : undefined;
  // Google's `status` is a word ("INVALID_ARGUMENT", "RESOURCE_EXHAUSTED"): it reads as the type.
  const type = str(o.type) ?? (typeof o.status === 'string' ? str(o.status) : undefined);
  const own: ErrorBody = {
    message: NO_DETAILS,
    fields: [],
    ...(type !== undefined ? { type } : {}),
    ...(codeOf(o.code) !== undefined ? { code: codeOf(o.code) } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(str(o.param) ? { param: str(o.param) } : {}),
    ...(o.usage !== undefined && o.usage !== null ? { usage: o.usage } : {}),
  };
  const inner = o.error !== undefined && o.error !== null && o.error !== false ? messageOf(o.error, depth) : undefined;
  const found = inner ?? messageOf(o.message, depth) ?? messageOf(o.detail, depth) ?? messageOf(o.msg, depth) ?? messageOf(o.error_msg, depth);
  const details = Array.isArray(o.details) ? locFields(o.details.flatMap((d) => (Array.isArray(field(d, 'fieldViolations')) ? (field(d, 'fieldViolations') as unknown[]) : [])), undefined) : [];
  let out = found ? merge(own, found) : own;
  if (details.length > 0) out = { ...out, fields: [...out.fields, ...details] };
  // OpenRouter names the provider's own words in `metadata.raw`.
  const raw = str(field(o.metadata, 'raw'));
  if (raw && !out.message.includes(raw)) out = { ...out, message: `${out.message}: ${raw.slice(0, 400)}` };
  return out;
}

function readAt(raw: unknown, depth: number): ErrorBody | undefined {
  if (depth > MAX_DEPTH || raw === undefined || raw === null || raw === false) return undefined;
  if (typeof raw === 'string') return messageOf(raw, depth) ?? { message: NO_DETAILS, fields: [] };
  if (Array.isArray(raw)) return messageOf(raw, depth) ?? { message: NO_DETAILS, fields: [] };
  if (isRecord(raw)) return readObject(raw, depth);
  return { message: typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : NO_DETAILS, fields: [] };
}

/** Reads an error body (already JSON-decoded, or its text when it was not JSON); undefined for no body at all. */
export function readErrorBody(raw: unknown): ErrorBody | undefined {
  if (typeof raw === 'string') {
    const json = parsedJson(raw);
    if (json !== undefined) return readAt(json, 0);
    const text = raw.trim();
    if (text === '' || /^<(!doctype|html|head|body)/i.test(text)) return undefined;
    return { message: text.slice(0, 1000), fields: [] };
  }
  return readAt(raw, 0);
}

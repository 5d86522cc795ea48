import * as z from 'zod';
import { needsKey } from '../core/gateway/localKey';
import { diagnoseGateway, type DoctorReport, type ProbeResult } from '../core/doctor/doctor';
import { parseSettings } from '../core/settings/parse';
import { DEFAULT_BASE_URL, modelIdSchema } from '../core/settings/schema';
import { formatCount, formatMs } from '../shared/format';
import { terminalText } from '../shared/untrustedText';
import { baseUrlOption, UsageError } from './args';
import { EXIT, missingKeyNote, type CliIo } from './exit';
import { cliPipeline } from './reviewSetup';

const DOCTOR_USAGE = `Usage: quorum doctor [--base-url URL] [--model agent=model ...] [--format text|json] [--cache-dir DIR]

Says what the gateway does, on one screen: its models (/models), and for each agent's model one tiny streamed
request: did it answer, in how long, is the usage reported and where, is JSON mode honoured, which model
answered, and the request shape Quorum sends it (what the gateway refused is learned and kept in the cache
folder). Then each agent's model with its price and context window as Quorum knows them.

Environment: QUORUM_API_KEY (not needed for a gateway on this machine), QUORUM_BASE_URL.
Exit codes: 0 every request answered, 2 usage error, 3 the gateway refused or failed a request.`;

const argsSchema = z.object({
  baseUrl: baseUrlOption,
  models: z.record(z.string().regex(/^[a-z][a-z0-9-]{0,39}$/), modelIdSchema),
  format: z.enum(['text', 'json']),
  cacheDir: z.string().min(1).optional(),
});
type DoctorArgs = z.infer<typeof argsSchema>;

function parseDoctorArgs(argv: readonly string[]): DoctorArgs {
  const raw: { baseUrl?: string; models: Record<string, string>; format: string; cacheDir?: string } = { models: {}, format: 'text' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag ?? ''} needs a value`);
    i++;
    if (flag === '--base-url') raw.baseUrl = value;
    else if (flag === '--format') raw.format = value;
    else if (flag === '--cache-dir') raw.cacheDir = value;
    else if (flag === '--model') {
      const eq = value.indexOf('=');
      if (eq <= 0) throw new UsageError('--model takes agent=model');
      raw.models[value.slice(0, eq)] = value.slice(eq + 1);
    } else throw new UsageError(`unknown option ${flag ?? ''}`);
  }
  const parsed = argsSchema.safeParse(raw);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.') || 'option'}: ${i.message}`).join('; '));
  return parsed.data;
}

const t = (s: string) => terminalText(s);

function usageLine(p: ProbeResult): string {
  if (p.usage !== 'reported') return 'no usage reported (Quorum counts the tokens itself)';
  const where = p.usageVia ? `in \`${p.usageVia.field}\` ${p.usageVia.everyChunk ? 'on every chunk' : 'on the last chunk'}` : '';
  return `usage reported ${where}${p.shape.streamOptions ? '' : ' (without stream_options, which it refused)'}`.trim();
}

function shapeLine(p: ProbeResult): string {
  const parts = [p.shape.tokens === 'none' ? 'no token limit' : p.shape.tokens, p.shape.temperature ? 'temperature' : 'no temperature'];
  if (!p.shape.streamOptions) parts.push('no stream_options');
  if (!p.shape.responseFormat) parts.push('no response_format');
  const learned = p.refused.length > 0 ? `; learned: it refuses ${p.refused.join(', ')}` : '';
  return `sent as ${parts.join(', ')}${learned}`;
}

const JSON_WORDS: Record<NonNullable<ProbeResult['json']>, string> = {
  honoured: 'JSON mode honoured',
  ignored: 'JSON mode ignored (answered prose; Quorum reads JSON from the text)',
  refused: 'JSON mode refused (asked for in the prompt only)',
  unknown: 'JSON mode not judged (empty answer)',
};

function probeLines(p: ProbeResult): string[] {
  const head = `  ${t(p.model)}: `;
  if (!p.ok) {
    const words = p.error?.detail ? ` — the gateway said: ${t(p.error.detail)}` : '';
    return [`${head}FAILED (${p.error?.code ?? 'error'}${p.error?.status ? `, HTTP ${p.error.status}` : ''}) after ${formatMs(p.latencyMs)}${words}`, `    ${shapeLine(p)}`];
  }
  const who = p.answeredBy && p.answeredBy !== p.model ? `; answered by ${t(p.answeredBy)}` : '';
  const tries = (p.attempts ?? 1) > 1 ? ` in ${p.attempts} attempts` : '';
  return [`${head}answered in ${formatMs(p.latencyMs)}${tries}${who}`, `    ${usageLine(p)}; ${p.json ? JSON_WORDS[p.json] : ''}`, `    ${shapeLine(p)}`];
}

/** The report in plain words, every text from the gateway escaped for the terminal. */
function renderDoctor(r: DoctorReport): string {
  const lines = [`Gateway ${t(r.baseUrl)}`];
  if (r.models.ok) {
    const shown = r.models.ids.slice(0, 8).map(t).join(', ');
    lines.push(`Models: ${formatCount(r.models.ids.length)} listed in ${formatMs(r.models.latencyMs)}${shown ? ` (${shown}${r.models.ids.length > 8 ? ', …' : ''})` : ''}`);
  } else {
    lines.push(`Models: /models failed (${r.models.error.code}): ${t(r.models.error.detail ?? r.models.error.message)}`);
  }
  lines.push('Requests (one tiny streamed request per agent model):');
  for (const p of r.probes) lines.push(...probeLines(p));
  lines.push('Agents:');
  for (const a of r.agents) {
    const price = a.priceSource ? `$${a.inputPerMTok} in / $${a.outputPerMTok} out per million tokens (${a.priceSource})` : 'price unknown (set quorum.prices to price it)';
    lines.push(`  ${a.agent}: ${t(a.model)} — ${price}; context window ${formatCount(a.contextWindow)} tokens`);
  }
  return lines.join('\n');
}

/** `quorum doctor`: the exit code; the report to stdout. */
export async function runDoctor(io: CliIo, fail: (message: string, code?: number) => number, scrub: (s: string) => string): Promise<number> {
  const rest = io.argv.slice(1);
  if (rest.includes('-h') || rest.includes('--help')) {
    io.stdout.write(DOCTOR_USAGE + '\n');
    return EXIT.ok;
  }
  let args: DoctorArgs;
  try {
    args = parseDoctorArgs(rest);
  } catch (e) {
    if (e instanceof UsageError) return fail(`${e.message} (see quorum doctor --help)`);
    throw e;
  }
  const key = io.env.QUORUM_API_KEY?.trim() ?? '';
  const baseUrl = args.baseUrl ?? (io.env.QUORUM_BASE_URL?.trim() || DEFAULT_BASE_URL);
  if (!key && (await needsKey(baseUrl, { signal: io.signal }))) return fail(`QUORUM_API_KEY is not set; export the gateway API key first${missingKeyNote(baseUrl)}`);
  // `--model agent=id` sets that agent's model (a built-in's or the verifier's), as in settings.
  const agents = Object.fromEntries(Object.entries(args.models).map(([agent, model]) => [agent, { model }]));
  const { settings: withModels, issues } = parseSettings({ gateway: { baseUrl }, agents });
  const badUrl = issues.find((i) => i.path.startsWith('gateway.baseUrl'));
  if (badUrl) return fail(`the base URL "${baseUrl}" is not valid: ${badUrl.message}`);
  const badAgent = issues.find((i) => i.path.startsWith('agents'));
  if (badAgent) return fail(`--model: ${badAgent.message} (${badAgent.path})`);
  const { gateway, listedPrices } = cliPipeline({ noCache: true, cacheDir: args.cacheDir, cacheTtl: 0 }, io.env, key, baseUrl, withModels);
  try {
    const report = await diagnoseGateway(gateway, withModels, { signal: io.signal, listed: () => listedPrices.for(baseUrl) });
    io.stdout.write(scrub(args.format === 'json' ? JSON.stringify(report, null, 2) : renderDoctor(report)) + '\n');
    return report.probes.every((p) => p.ok) ? EXIT.ok : EXIT.agentFailed;
  } finally {
    gateway.dispose();
  }
}

import { needsKey } from '../core/gateway/localKey';
import { diagnoseGateway, type DoctorReport, type ProbeResult } from '../core/doctor/doctor';
import { formatCount, formatMs } from '../shared/format';
import { terminalText } from '../shared/untrustedText';
import { byAgent, checked, commandArgs, readFlags, UsageError, type FlagKinds } from './flags';
import { oneOf, sharedFlags } from './options';
import { cliBaseUrl, cliSettings } from './settings';
import { EXIT, missingKeyNote, type CliIo } from './exit';
import { cliPipeline } from './reviewSetup';

const DOCTOR_USAGE = `Usage: quorum doctor [--base-url URL] [--model agent=model ...] [--format text|json] [--cache-dir DIR]

Says what the gateway does, on one screen: its models (/models), and for each agent's model one tiny streamed
request: did it answer, in how long, is the usage reported and where, is JSON mode honoured, which model
answered, and the request shape Quorum sends it (what the gateway refused is learned and kept in the cache
folder). Then each agent's model with its price and context window as Quorum knows them.

Environment: QUORUM_API_KEY (not needed for a gateway on this machine), QUORUM_BASE_URL.
Exit codes: 0 every request answered, 2 usage error, 3 the gateway refused or failed a request.`;

const DOCTOR_FLAGS: FlagKinds = { 'base-url': 'value', model: 'list', format: 'value', 'cache-dir': 'value' };

const argsSchema = sharedFlags.pick({ baseUrl: true, model: true, cacheDir: true }).extend({ format: oneOf(['text', 'json'], '--format is text or json').default('text') });

/** The flags after `doctor`; `--model agent=id` names any agent's model, the verifier's too. Throws `UsageError`. */
function parseDoctorArgs(argv: readonly string[]) {
  const { values } = readFlags(argv, DOCTOR_FLAGS, { command: 'doctor', positional: (word) => `quorum doctor takes no "${word}"` });
  const { model, ...args } = checked(argsSchema, values);
  return { ...args, models: byAgent('--model', model) };
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
  const args = commandArgs(io, 'doctor', DOCTOR_USAGE, parseDoctorArgs, fail);
  if (typeof args === 'number') return args;
  const key = io.env.QUORUM_API_KEY?.trim() ?? '';
  const baseUrl = cliBaseUrl(args.baseUrl, io.env);
  if (!key && (await needsKey(baseUrl, { signal: io.signal }))) return fail(`QUORUM_API_KEY is not set; export the gateway API key first${missingKeyNote(baseUrl)}`);
  let configured: ReturnType<typeof cliSettings>;
  try {
    // `--model agent=id` sets that agent's model (a built-in's or the verifier's), as in settings.
    configured = cliSettings({ baseUrl }, io.env, args.models);
  } catch (e) {
    if (e instanceof UsageError) return fail(e.message);
    throw e;
  }
  const { settings: withModels, issues } = configured;
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

/** Output languages: resolving `auto` and naming a language in a prompt. Codes are BCP 47-like (`ko`, `pt-br`). */

const NAMES: Record<string, string> = {
  en: 'English',
  ko: 'Korean',
  ja: 'Japanese',
  zh: 'Chinese',
  'zh-cn': 'Simplified Chinese',
  'zh-tw': 'Traditional Chinese',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese',
  'pt-br': 'Brazilian Portuguese',
  ru: 'Russian',
  pl: 'Polish',
  nl: 'Dutch',
  tr: 'Turkish',
  vi: 'Vietnamese',
  id: 'Indonesian',
  th: 'Thai',
  uk: 'Ukrainian',
  cs: 'Czech',
  sv: 'Swedish',
  hu: 'Hungarian',
  ar: 'Arabic',
  he: 'Hebrew',
  hi: 'Hindi',
};

const CODE = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/;

/** Lower-cases and checks a language code; `undefined` for `auto`, empty or malformed input. */
export function normalizeLanguage(code: string | undefined): string | undefined {
  const c = (code ?? '').trim().toLowerCase().replace(/_/g, '-');
  if (!c || c === 'auto' || !CODE.test(c)) return undefined;
  return c;
}

/** The English name of a language for prompts: `ko` → `Korean`; a region falls back to its language. */
export function languageName(code: string): string {
  const c = normalizeLanguage(code) ?? 'en';
  return NAMES[c] ?? NAMES[c.split('-')[0] ?? c] ?? c;
}

/**
 * The language of a POSIX locale environment (`LC_ALL`, then `LC_MESSAGES`, then `LANG`):
 * `ko_KR.UTF-8` → `ko`, `pt_BR` → `pt-br`; `C`, `POSIX` or nothing → `en`.
 */
export function languageFromLocale(env: Readonly<Record<string, string | undefined>>): string {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name]?.trim();
    if (!value) continue;
    const base = value.split(/[.@]/)[0] ?? value;
    if (base === 'C' || base === 'POSIX') return 'en';
    const [lang, region] = base.split(/[_-]/);
    const code = normalizeLanguage(lang);
    if (!code) continue;
    const withRegion = region ? `${code}-${region.toLowerCase()}` : code;
    return NAMES[withRegion] ? withRegion : code;
  }
  return 'en';
}

/**
 * The one output-language resolver of both faces: a code from the settings or `--language` is used as given
 * (normalised); `auto`, nothing or a malformed code follows the face's own language — VS Code's display
 * language, or the CLI's locale environment (`languageFromLocale`) — and English when that says nothing.
 */
export function resolveOutputLanguage(requested: string | undefined, uiLanguage: string): string {
  return normalizeLanguage(requested) ?? normalizeLanguage(uiLanguage) ?? 'en';
}

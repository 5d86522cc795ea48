import { distance } from 'fastest-levenshtein';

/**
 * The known model ids closest to a mistyped one, best first: ids that contain it (or that it contains) rank
 * ahead, then by edit distance relative to length. Case, `provider/` prefixes and separators are ignored.
 */
export function closestModels(wanted: string, known: readonly string[], max = 5): string[] {
  const norm = (s: string) => s.toLowerCase().slice(s.lastIndexOf('/') + 1).replace(/[._:\s]/g, '-');
  const w = norm(wanted);
  if (w === '') return [];
  const scored = [...new Set(known)]
    .filter((id) => id !== wanted)
    .map((id) => {
      const k = norm(id);
      const d = distance(w, k) / Math.max(w.length, k.length, 1);
      const contains = k.includes(w) || w.includes(k) ? -0.5 : 0;
      return { id, score: d + contains };
    })
    .filter((x) => x.score <= 0.6)
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id));
  return scored.slice(0, max).map((x) => x.id);
}

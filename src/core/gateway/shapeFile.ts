import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { SHAPE_PARAMS, type ShapeParam, type ShapeStore } from './shape';

/** The file in the CLI's cache folder that keeps learned request shapes between runs. */
export const SHAPES_FILE = 'gateway-shapes.json';

const fileSchema = z.object({
  version: z.literal(1),
  /** `<normalized base URL> <model>` → the fields that gateway refused for that model. */
  shapes: z.record(z.string().max(2000), z.array(z.enum(SHAPE_PARAMS)).max(SHAPE_PARAMS.length)),
});

/** A `ShapeStore` on a JSON file (written atomically, owner-only); an unreadable or foreign file is ignored. */
export function shapeFile(cacheDir: string): ShapeStore {
  const path = join(cacheDir, SHAPES_FILE);
  return {
    load(): Record<string, ShapeParam[]> {
      try {
        const parsed = fileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
        return parsed.success ? parsed.data.shapes : {};
      } catch {
        return {};
      }
    },
    save(shapes: Record<string, ShapeParam[]>): void {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      writeFileSync(temp, JSON.stringify({ version: 1, shapes }), { mode: 0o600, flag: 'wx' });
      renameSync(temp, path);
    },
  };
}

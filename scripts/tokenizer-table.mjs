// `npm run tokenizer:table`: writes data/cl100k_base.json, the cl100k_base rank table that
// src/core/tokens/encoding.ts reads, from gpt-tokenizer's own table (one source: the library; the unit test
// test/unit/tokens/rankTable.test.ts fails if the two ever differ).
//
// Why a JSON copy: the library ships the table as a 1.1 MB JavaScript array literal, which V8 must parse and
// compile before it runs (0.1–0.15 s of CPU, most of the tokenizer's cold load); JSON.parse reads the same
// table in a third of that. cl100k_base is OpenAI's frozen encoding: the table never changes.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const table = require('gpt-tokenizer/bpeRanks/cl100k_base').default;
const out = fileURLToPath(new URL('../data/cl100k_base.json', import.meta.url));
writeFileSync(out, JSON.stringify(table) + '\n');
console.log(`${out}: ${table.length} ranks`);

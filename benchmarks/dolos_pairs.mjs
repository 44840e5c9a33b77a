// Dolos on Python files, for benchmarks/bench_similarity.py:
//
//     node dolos_pairs.mjs PREFIX TEMPLATE FILE...
//
// runs @dodona/dolos-lib, installed with `npm install --prefix PREFIX @dodona/dolos-lib`, with its
// default settings, the language set to Python and TEMPLATE given as the template (boilerplate) code
// whose fingerprints no pair counts, and prints as JSON its warnings and every pair of FILEs sharing
// a fingerprint: {"left", "right", "similarity", "longest"}, the files' paths as given.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [prefix, template, ...files] = process.argv.slice(2);
const library = createRequire(join(prefix, "package.json")).resolve("@dodona/dolos-lib");
const { Dolos } = await import(pathToFileURL(library).href);
const report = await new Dolos({ language: "python" }).analyzePaths(files, template);
const pairs = report.allPairs().map(pair => ({
    left: pair.leftFile.path,
    right: pair.rightFile.path,
    similarity: pair.similarity,
    longest: pair.longest,
}));
process.stdout.write(JSON.stringify({ warnings: report.warnings, pairs }));

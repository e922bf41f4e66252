// Compute the edge functions manifest Netlify deploys for a project, offline.
//
//   node tests/edge/manifest.mjs PROJECT_DIR
//
// Declarations come from netlify.toml (@netlify/config, as Netlify's build reads it); each
// function's inline `config` is read by importing the module in Deno, as the emulator does
// (the bundler's own reader imports a remote module, which is not reachable offline); the
// manifest is then made by @netlify/edge-bundler's generateManifest, the code a deploy uses.

import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { resolveConfig } from "@netlify/config";
import { find, generateManifest, mergeDeclarations } from "@netlify/edge-bundler";

const root = path.resolve(process.argv[2] ?? ".");
const { config } = await resolveConfig({
  config: path.join(root, "netlify.toml"),
  repositoryRoot: root,
  cwd: root,
  offline: true,
  context: "production",
});
const directory = config.build.edge_functions;
const functions = await find([directory]);

const configs = {};
for (const { name, path: file } of functions) {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)});` +
    "console.log(JSON.stringify(m.config ?? {}));";
  const out = execFileSync("deno", ["eval", "--quiet", "--no-lock", script], { cwd: root, encoding: "utf8" });
  configs[name] = JSON.parse(out);
}

const declarations = mergeDeclarations(config.edge_functions ?? [], configs, {}, []);
const { manifest } = generateManifest({ declarations, functions, userFunctionConfig: configs });
console.log(JSON.stringify({ build: config.build, redirects: config.redirects, headers: config.headers, inline: configs, manifest }));

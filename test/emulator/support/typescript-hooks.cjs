/**
 * Lets a child Node process run the emulator's TypeScript sources directly (`node -r <this>
 * emulator/bin.ts`), as the persistence tests need a process they can kill: relative `.js`
 * imports resolve to the `.ts` file next to them, and `.ts` files are transpiled to CommonJS
 * with the project's TypeScript.
 */
const { registerHooks } = require("node:module");
const { existsSync, readFileSync } = require("node:fs");
const { fileURLToPath } = require("node:url");
const ts = require("typescript");

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL?.endsWith(".ts")) {
      const typescriptSpecifier = `${specifier.slice(0, -3)}.ts`;
      if (existsSync(fileURLToPath(new URL(typescriptSpecifier, context.parentURL)))) {
        return nextResolve(typescriptSpecifier, context);
      }
    }
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (!url.endsWith(".ts")) return nextLoad(url, context);
    const fileName = fileURLToPath(url);
    const output = ts.transpileModule(readFileSync(fileName, "utf8"), {
      fileName,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2023, esModuleInterop: true },
    });
    return { format: "commonjs", source: output.outputText, shortCircuit: true };
  },
});

/** The files a fresh consumer app uses our packages from: ESM, CJS and TypeScript. */

/** An installed package's name and the subpaths its `exports` lists. */
export interface InstalledEntryPoints {
  readonly name: string;
  readonly subpaths: readonly string[];
}

/** Every import specifier the packages export (`./package.json` aside). */
export function specifiers(packages: readonly InstalledEntryPoints[]): string[] {
  return packages.flatMap(({ name, subpaths }) =>
    subpaths
      .filter((subpath) => subpath !== "./package.json")
      .map((subpath) => (subpath === "." ? name : `${name}/${subpath.slice(2)}`)),
  );
}

// One call into two packages, through their public types and values: an upstream-compatible
// parser of @paperclipai/adapter-utils, and the error it throws recognised by the consumer's
// own @paperclipai/errors (the class travels across the two packages).
const CROSS_PACKAGE_USE = `
let refused = "";
try {
  adapterUtils.parseLocalProcessNetworkScope("everything");
} catch (error) {
  refused = errors.PaperclipError.is(error) ? String((error as { code: string }).code) : "not coded";
}
`;

/** The ESM probe (`probe.mjs`): imports every specifier, prints what each exports, and the cross-package use. */
export function esmProbe(all: readonly string[]): string {
  return [
    ...all.map((specifier, index) => `import * as m${index} from ${JSON.stringify(specifier)};`),
    'import * as errors from "@paperclipai/errors";',
    'import * as adapterUtils from "@paperclipai/adapter-utils";',
    CROSS_PACKAGE_USE.replace(" as { code: string }", ""),
    `const counts = { ${all.map((specifier, index) => `${JSON.stringify(specifier)}: Object.keys(m${index}).length`).join(", ")} };`,
    'console.log(JSON.stringify({ counts, scope: adapterUtils.parseLocalProcessNetworkScope("deny"), refused }));',
  ].join("\n");
}

/** The CJS probe (`probe.cjs`): the same through `require`. */
export function cjsProbe(all: readonly string[]): string {
  return [
    'const errors = require("@paperclipai/errors");',
    'const adapterUtils = require("@paperclipai/adapter-utils");',
    CROSS_PACKAGE_USE.replace(" as { code: string }", ""),
    `const counts = { ${all.map((specifier) => `${JSON.stringify(specifier)}: Object.keys(require(${JSON.stringify(specifier)})).length`).join(", ")} };`,
    'console.log(JSON.stringify({ counts, scope: adapterUtils.parseLocalProcessNetworkScope("deny"), refused }));',
  ].join("\n");
}

/** A TypeScript probe: every specifier's types, and typed use of two packages. */
export function typescriptProbe(all: readonly string[]): string {
  return [
    ...all.map((specifier, index) => `import * as m${index} from ${JSON.stringify(specifier)};`),
    'import * as errors from "@paperclipai/errors";',
    'import * as adapterUtils from "@paperclipai/adapter-utils";',
    CROSS_PACKAGE_USE,
    'const scope: "deny" | "allowlist" | null = adapterUtils.parseLocalProcessNetworkScope("deny");',
    `export const loaded: number[] = [${all.map((_, index) => `Object.keys(m${index}).length`).join(", ")}];`,
    "export { refused, scope };",
  ].join("\n");
}

/** The two module resolutions a TypeScript consumer uses: node16 (ESM and CJS files) and bundler. */
export const TSCONFIGS: Record<string, { compilerOptions: Record<string, unknown>; files: string[] }> = {
  "tsconfig.node16.json": {
    compilerOptions: { module: "node16", moduleResolution: "node16", target: "es2022" },
    files: ["probe-esm.mts", "probe-cjs.cts"],
  },
  "tsconfig.bundler.json": {
    compilerOptions: { module: "esnext", moduleResolution: "bundler", target: "es2022" },
    files: ["probe-bundler.ts"],
  },
};

/**
 * Options every TypeScript consumer config shares: a strict consumer that does not set
 * `skipLibCheck`, so the published declarations are checked too (with it, a `.d.cts` that
 * could not be loaded from CommonJS passed unnoticed).
 */
export const SHARED_TS_OPTIONS = { strict: true, noEmit: true, skipLibCheck: false, types: ["node"] };

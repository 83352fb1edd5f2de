// The plugin SDK is ESM-only (its `exports` have no `require` condition). tsup writes the CJS
// declarations (dist/*.d.cts) with plain `import … from '@paperclipai/plugin-sdk'`, which a
// TypeScript consumer compiling CommonJS under node16/nodenext refuses (TS1479: an ESM module
// cannot be `require`d) unless it sets `skipLibCheck`. The declarations only need the SDK's
// types, so each such import becomes `import type … with { 'resolution-mode': 'import' }`
// (TypeScript 5.3+), which resolves the SDK as an ESM importer does. The JS is unchanged: the
// CJS build never requires the SDK at run time.
//
//   node scripts/cjs-types-import-sdk.mjs    after tsup, on dist/*.d.cts
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "dist");
const SDK = "@paperclipai/plugin-sdk";
const plainImport = /^import (\* as [A-Za-z_$][\w$]*|\{[^}]*\}) from '@paperclipai\/plugin-sdk';$/gm;

let rewritten = 0;
const leftOver = [];
for (const name of readdirSync(distDir).filter((file) => file.endsWith(".d.cts"))) {
  const file = path.join(distDir, name);
  const before = readFileSync(file, "utf8");
  const after = before.replace(plainImport, (_line, clause) => {
    rewritten += 1;
    return `import type ${clause} from '${SDK}' with { 'resolution-mode': 'import' };`;
  });
  if (after !== before) writeFileSync(file, after);
  // Any other reference to the SDK (a re-export, a new import form) would still fail: refuse
  // to ship it rather than publish declarations a CJS consumer cannot check.
  for (const line of after.split("\n")) {
    if (line.includes(`'${SDK}`) && !line.includes("'resolution-mode': 'import'")) {
      leftOver.push(`${name}: ${line}`);
    }
  }
}

if (leftOver.length > 0) {
  console.error(
    `cjs-types-import-sdk: SDK references this script cannot rewrite:\n  ${leftOver.join("\n  ")}`,
  );
  process.exitCode = 1;
} else {
  console.log(`cjs-types-import-sdk: ${rewritten} SDK imports in dist/*.d.cts resolved as ESM`);
}

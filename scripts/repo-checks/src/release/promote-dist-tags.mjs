// The last step of `pnpm release`: after `changeset publish --tag publishing`, gives every
// package just published its declared dist-tag and removes the staging tag (the plan is
// dist-tag-plan.mjs). Uses the npm CLI with the caller's registry and credentials.
// usage: node scripts/repo-checks/src/release/promote-dist-tags.mjs
import { execFileSync } from "node:child_process";
import { publishablePackages } from "../workspace-packages.mjs";
import { planDistTags } from "./dist-tag-plan.mjs";

/** @param {string[]} args */
const npm = (args) => execFileSync("npm", args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

for (const { manifest } of publishablePackages()) {
  const publishConfig = /** @type {{ tag?: string } | undefined} */ (manifest.publishConfig);
  const pkg = { name: manifest.name, version: manifest.version, tag: publishConfig?.tag ?? "latest" };
  const distTags = /** @type {Record<string, string>} */ (
    JSON.parse(npm(["view", pkg.name, "dist-tags", "--json"]))
  );
  for (const action of planDistTags(pkg, distTags)) {
    if (action.kind === "add") npm(["dist-tag", "add", `${action.name}@${action.version}`, action.tag]);
    else npm(["dist-tag", "rm", action.name, action.tag]);
    console.log(`${action.kind === "add" ? "tagged" : "untagged"} ${action.name} ${action.tag}`);
  }
}

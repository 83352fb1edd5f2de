import { describe, expect, it } from "vitest";
import {
  BRIDGE_DEFERRED_ENV_PREFIX,
  deferBridgeEnv,
  deferBridgeEnvChanges,
  restoreDeferredEnv,
} from "./deferred-env.js";

describe("deferBridgeEnv", () => {
  it("moves NODE_EXTRA_CA_CERTS and NODE_OPTIONS under the carrier prefix, leaving the rest alone", () => {
    expect(
      deferBridgeEnv({ NODE_EXTRA_CA_CERTS: "/ca.pem", NODE_OPTIONS: "--no-warnings", PATH: "/usr/bin" }),
    ).toEqual({
      [`${BRIDGE_DEFERRED_ENV_PREFIX}NODE_EXTRA_CA_CERTS`]: "/ca.pem",
      [`${BRIDGE_DEFERRED_ENV_PREFIX}NODE_OPTIONS`]: "--no-warnings",
      PATH: "/usr/bin",
    });
  });

  it("keeps an empty value and drops a carrier the program did not have the variable for", () => {
    expect(
      deferBridgeEnv({
        NODE_OPTIONS: "",
        [`${BRIDGE_DEFERRED_ENV_PREFIX}NODE_EXTRA_CA_CERTS`]: "/stale.pem",
      }),
    ).toEqual({ [`${BRIDGE_DEFERRED_ENV_PREFIX}NODE_OPTIONS`]: "" });
  });
});

describe("restoreDeferredEnv", () => {
  it("gives the program back exactly the env deferBridgeEnv was given", () => {
    const programs = [
      { NODE_EXTRA_CA_CERTS: "/ca.pem", NODE_OPTIONS: "--no-warnings", PATH: "/usr/bin" },
      { NODE_OPTIONS: "", HOME: "/home/agent" },
      { PATH: "/bin" },
    ];
    for (const env of programs) expect(restoreDeferredEnv(deferBridgeEnv(env))).toEqual(env);
  });
});

describe("deferBridgeEnvChanges", () => {
  it("moves a deferred variable the changes set under the carrier and deletes it, leaving deletions alone", () => {
    expect(
      deferBridgeEnvChanges({
        NODE_USE_ENV_PROXY: "1",
        HTTP_PROXY: "http://127.0.0.1:31337",
        NO_PROXY: undefined,
      }),
    ).toEqual({
      NODE_USE_ENV_PROXY: undefined,
      [`${BRIDGE_DEFERRED_ENV_PREFIX}NODE_USE_ENV_PROXY`]: "1",
      HTTP_PROXY: "http://127.0.0.1:31337",
      NO_PROXY: undefined,
    });
  });
});

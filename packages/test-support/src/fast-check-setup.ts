import fc from "fast-check";
import { fastCheckSeed } from "./fast-check-seed.js";

// A vitest setup file (`setupFiles`): it runs in each test file's context, before its tests.
const seed = fastCheckSeed();
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });

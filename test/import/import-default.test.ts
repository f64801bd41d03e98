/**
 * `pulumi-monitoring import` against the emulator's default profile, as monitoring files (the
 * account's and one client's), on the smallest account with every variant the seed makes (16
 * objects of every kind). The TypeScript program is deployed on the alt profile
 * (import-alt.test.ts, which says why one format a profile proves both).
 */
import { describeImport } from "./scenario.js";

describeImport({ profile: "default", format: "yaml", count: 16, refresh: true });

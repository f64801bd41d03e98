/**
 * `pulumi-monitoring import` against the emulator's alt profile (upper-case ids, other regions,
 * nulls for fields not set, other names for returned-once secrets, channel credentials in its
 * answers), as a TypeScript program of every client (`--all-clients`).
 *
 * 16 objects of every kind are the smallest account with every variant the seed makes (the four
 * monitor types, each in each of the four places, every channel kind, paused, archived and shared
 * names).
 *
 * Each profile is deployed in one format, each format on one profile (the monitoring files on the
 * default profile, import-default.test.ts): what a profile changes is what the import reads
 * (test/import/read.test.ts, on both profiles) and what the provider reads back, the same for
 * either format; what a format changes is the text rendered from one plan (test/import/plan.test.ts).
 * The `pulumi refresh` of its own that finds nothing to change is the default profile's
 * (import-default.test.ts): the edit's up here refreshes first all the same (refresh: always), and
 * each kind read back on this profile is test/provider/every-kind-alt.test.ts.
 */
import { describeImport } from "./scenario.js";

describeImport({ profile: "alt", format: "ts", count: 16, refresh: false });

/**
 * `pulumi-monitoring import` against the emulator's alt profile (upper-case ids, other regions,
 * nulls for fields not set, other names for returned-once secrets, channel credentials in its
 * answers), in both formats.
 */
import { describeImport } from "./scenario.js";

describeImport({ profile: "alt", format: "ts", count: 12 });
describeImport({ profile: "alt", format: "yaml", count: 12 });

/**
 * `pulumi-monitoring import` against the emulator's alt profile (upper-case ids, other regions,
 * nulls for fields not set, other names for returned-once secrets), in both formats.
 */
import { describeImport } from "./scenario.js";

describeImport({ profile: "alt", format: "ts", count: 40 });
describeImport({ profile: "alt", format: "yaml", count: 40 });

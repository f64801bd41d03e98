/**
 * `pulumi-monitoring import` against the emulator's default profile, in both formats, on the
 * smallest account with every variant the seed makes (16 objects of every kind; see import-alt).
 */
// @ts-nocheck

import { describeImport } from "./scenario.js";

describeImport({ profile: "default", format: "ts", count: 16 });
describeImport({ profile: "default", format: "yaml", count: 16 });

/**
 * `pulumi-monitoring import` against the emulator's alt profile (upper-case ids, other regions,
 * nulls for fields not set, other names for returned-once secrets, channel credentials in its
 * answers), in both formats.
 *
 * 16 objects of every kind are the smallest account with every variant the seed makes (the four
 * monitor types, each in each of the four places, every channel kind, paused, archived and shared
 * names).
 */
// @ts-nocheck

import { describeImport } from "./scenario.js";

describeImport({ profile: "alt", format: "ts", count: 16 });
describeImport({ profile: "alt", format: "yaml", count: 16 });

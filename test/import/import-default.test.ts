/** `pulumi-monitoring import` against the emulator's default profile, in both formats. */
import { describeImport } from "./scenario.js";

describeImport({ profile: "default", format: "ts", count: 12 });
describeImport({ profile: "default", format: "yaml", count: 12 });

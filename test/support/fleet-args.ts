/**
 * The fleet's options from a command line, read as `pulumi-monitoring fleet` reads them
 * (cli/fleet/command.ts: the command line parsed with the fleet's options, then each verb's own;
 * `--help` is the command's, tested through it).
 */
import { parseCommandLine } from "../../cli/command/args.js";
import { FLEET_OPTIONS, type FleetOptions, fleetOptionsOf } from "../../cli/fleet/options.js";

export function parseFleetArgs(argv: readonly string[], cwd: string): FleetOptions {
  return fleetOptionsOf(parseCommandLine(argv, FLEET_OPTIONS, true), cwd);
}

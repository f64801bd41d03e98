/**
 * One monitor per stack, named after the stack (config `name` when set), paused in the windows of
 * config `pauses` (a JSON list, default none): the smallest program with a pause state to drive.
 */
import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const config = new pulumi.Config();
const stack = pulumi.getStack();

new mon.Monitor("site", {
  name: config.get("name") ?? `${stack} site`,
  url: `https://${stack}.example.com`,
  pauses: config.getObject<mon.MonitorPauseArgs[]>("pauses") ?? [],
});

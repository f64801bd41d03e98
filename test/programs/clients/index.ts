/**
 * One client of an agency per stack: the client, an email channel and `monitorCount` monitors
 * (config, default 8), each attached to the channel, all named after the stack. The shape of
 * issue 34's load case: 10 objects and 8 attachments per stack.
 */
import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const config = new pulumi.Config();
const monitorCount = config.getNumber("monitorCount") ?? 8;
const stack = pulumi.getStack();

const client = new mon.Client("client", { name: `Client ${stack}` });
const email = new mon.NotificationChannel("email", {
  clientId: client.id,
  name: `${stack} on call`,
  kind: "email",
  config: { address: `oncall@${stack}.example.com` },
});
for (let index = 0; index < monitorCount; index++) {
  new mon.Monitor(`site-${index}`, {
    clientId: client.id,
    name: `${stack} site ${index}`,
    url: `https://${stack}.example.com/${index}`,
    intervalSeconds: 60,
    notificationChannelIds: [email.id],
  });
}

export const clientId = client.id;

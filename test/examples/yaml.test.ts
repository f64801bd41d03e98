/**
 * examples/yaml on the real Pulumi engine against the emulator: the monitoring file's entries
 * become resources wired by name, its `${env:...}` secrets stay encrypted in state, and the stack
 * goes through preview, up, an empty preview, destroy, and nothing left.
 */
import { describe, expect, it } from "vitest";
import { useExampleStack } from "./support.js";

/** What monitoring.yaml reads from the environment. */
const SECRETS = {
  CHECKOUT_SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T000/B000/checkoutsecret",
  CHECKOUT_PAGERDUTY_KEY: "0123456789abcdef0123456789abcdef",
  CHECKOUT_API_PASSWORD: "correct-horse-checkout",
};
/** The file's entries: 3 channels, 1 policy, 4 monitors, 1 heartbeat group, 2 heartbeats, 1 webhook subscription. */
const ENTRIES = 3 + 1 + 4 + 1 + 2 + 1;

type IdsBySection = Record<string, Record<string, string>>;

describe("examples/yaml", () => {
  const example = useExampleStack({ program: "examples/yaml", env: SECRETS, runner: "cli-up" });
  let ids: IdsBySection;

  it("previews a resource for every entry of the file", async () => {
    const preview = await example.harness.stack.preview();
    expect(preview.changeSummary.create).toBe(1 + ENTRIES);
  });

  it("creates them on up, wired to each other by the names the file uses", async () => {
    const up = await example.harness.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(1 + ENTRIES);
    ids = Object.fromEntries(Object.entries(up.outputs).map(([name, output]) => [name, output.value]));
    const channels = ids["notificationChannelIds"] as Record<string, string>;
    const policyId = ids["escalationPolicyIds"]?.["checkout-on-call"];
    expect(await example.service.find(`/monitors/${ids["monitorIds"]?.["checkout-api"]}`)).toMatchObject({
      name: "checkout-api",
      escalation_policy_id: policyId,
      maintenance_weekdays: ["sun"],
      auth_password_set: true,
    });
    const attached = await example.service.list(`/monitors/${ids["monitorIds"]?.["storefront"]}/notification_channels`);
    expect(attached.map((channel) => channel.id)).toEqual([channels["checkout-slack"]]);
    const policy = await example.service.find(`/escalation-policies/${policyId}`);
    expect((policy?.["steps"] as { notification_channel_ids: string[] }[])[1]?.notification_channel_ids).toEqual([channels["on-call-pager"]]);
    expect(await example.service.find(`/heartbeats/${ids["heartbeatIds"]?.["order-export"]}`)).toMatchObject({ expected_interval_seconds: 86400 });
  });

  it("keeps the secrets it read from the environment encrypted in state", async () => {
    const state = await example.harness.readStateFile();
    for (const secret of Object.values(SECRETS)) expect(state).not.toContain(secret);
    for (const pingUrl of Object.values(ids["heartbeatPingUrls"] ?? {})) expect(state).not.toContain(pingUrl);
  });

  it("previews no changes right after up", async () => {
    const preview = await example.harness.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary.same).toBe(1 + ENTRIES);
  });

  it("destroys every entry, leaving nothing in the service", async () => {
    const destroy = await example.harness.stack.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(1 + ENTRIES);
    const collections: Record<string, string> = {
      monitorIds: "/monitors",
      notificationChannelIds: "/notification_channels",
      escalationPolicyIds: "/escalation-policies",
      heartbeatIds: "/heartbeats",
    };
    for (const [output, collection] of Object.entries(collections)) {
      for (const id of Object.values(ids[output] ?? {})) expect(await example.service.find(`${collection}/${id}`)).toBeUndefined();
    }
    expect(await example.service.list("/heartbeat-groups")).toEqual([]);
    expect(await example.service.list("/webhook-subscriptions")).toEqual([]);
  });
});

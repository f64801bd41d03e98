/**
 * Every resource kind and association through the lifecycle Pulumi's ProgramTest runs:
 * preview, up, an empty refresh, edits, an empty preview, destroy, and nothing left behind, with
 * the program run inline. One empty preview, after the edits, when every resource has been
 * created and most of them updated; right after the up, the refresh finds each create's outputs
 * read back unchanged, and that each kind's diff after its create is empty is
 * test/provider/methods.test.ts ("preview after create"). A program run in a language host, as `pulumi up` runs it, is
 * test/foundation/lifecycle.test.ts (up, an edit, destroy of a dynamic resource).
 *
 * On the default profile: the engine's part (ordering, outputs, secrets, the summary) is the same
 * whatever the server. The same program's steps on the alt profile, another server's choices, go
 * through the provider's interface (test/provider/every-kind-alt.test.ts).
 */
import type { OutputMap } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, collections, secrets, type Deployment } from "./support.js";

describe("every kind and association on the real engine (default profile)", () => {
  let deployment: Deployment;
  /** The stack's outputs after the last up. */
  let outputs: OutputMap;

  beforeAll(async () => {
    deployment = await deploy({
      program: "test/programs/everything",
      config: {
        step: { value: "1" },
        regions: { value: "eu-west-1,us-east-1" },
        basicAuthPassword: { value: secrets.basicAuthPassword, secret: true },
        headerValue: { value: secrets.headerValue, secret: true },
        chatWebhookUrl: { value: secrets.chatWebhookUrl, secret: true },
      },
    });
  });
  afterAll(async () => deployment?.dispose());

  it("previews every resource as a create, with no API call", async () => {
    await deployment.emulator.admin.clearRequestLog();
    const preview = await deployment.harness.stack.preview();
    expect(preview.changeSummary.create).toBe(12); // 11 resources and the stack
    expect(await deployment.emulator.admin.requestLog()).toHaveLength(0);
  });

  it("creates everything on up", async () => {
    const up = await deployment.harness.stack.up({ onOutput: (line) => process.stdout.write(line) });
    expect(up.summary.resourceChanges?.create).toBe(12);
    outputs = up.outputs;
    const monitors = await deployment.listAll<{ name: string; notification_channel_ids?: string[] }>("/monitors");
    expect(monitors.map((monitor) => monitor.name).sort()).toEqual(["Acme database port", "Acme website"]);
  });

  it("applies the associations", async () => {
    const [websiteId] = outputs.monitorIds!.value as string[];
    const attached = await deployment.api<{ id: string }[]>(`/monitors/${websiteId}/notification_channels`);
    expect(attached.map((channel) => channel.id).sort()).toEqual([...(outputs.channelIds!.value as string[])].sort());
    const website = await deployment.api<Record<string, unknown>>(`/monitors/${websiteId}`);
    expect(website.escalation_policy_id).toBe(outputs.policyId!.value);
    expect(website.client_id).toBe(outputs.clientId!.value);
    const heartbeat = await deployment.api<Record<string, unknown>>(`/heartbeats/${outputs.heartbeatId!.value}`);
    expect(heartbeat.heartbeat_group_id).toBe(outputs.groupId!.value);
    const portal = await deployment.api<Record<string, unknown>>(`/clients/${outputs.clientId!.value}/portal-settings`);
    expect(portal).toMatchObject({ enabled: true, title: "Acme status" });
  });

  it("refreshes with no changes after up, reading only: each kind reads back what its create recorded", async () => {
    await deployment.emulator.admin.clearRequestLog();
    const refresh = await deployment.harness.stack.refresh({ expectNoChanges: true });
    expect(refresh.summary.result).toBe("succeeded");
    const requests = await deployment.emulator.admin.requestLog();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((request) => request.method !== "GET")).toEqual([]);
  });

  it("applies the edits: updates, removed inputs, a replacement, a detach and a pause", async () => {
    await deployment.harness.stack.setConfig("step", { value: "2" });
    const up = await deployment.harness.stack.up({ onOutput: (line) => process.stdout.write(line) });
    outputs = up.outputs;
    const changes = up.summary.resourceChanges!;
    expect(changes.replace).toBe(1); // the share link's label cannot change in place
    // The client's portal title, the website, the heartbeat, the webhook's description.
    expect(changes.update).toBe(4);

    const [websiteId] = up.outputs.monitorIds!.value as string[];
    const website = await deployment.api<Record<string, unknown>>(`/monitors/${websiteId}`);
    expect(website).toMatchObject({ name: "Acme website (www)", interval_seconds: 300, status: "PAUSED" });
    // Removed inputs: a field with a default gets it back, one without is cleared.
    expect(website.http_method).toBe("GET");
    expect(website.ssl_expiry_alert_days ?? null).toBeNull();
    expect((website.regions as string[]).length).toBeGreaterThan(0);
    const heartbeat = await deployment.api<Record<string, unknown>>(`/heartbeats/${up.outputs.heartbeatId!.value}`);
    expect(heartbeat.heartbeat_group_id ?? null).toBeNull();
    expect(heartbeat.grace_period_seconds).not.toBe(1_800);
    const attached = await deployment.api<{ id: string }[]>(`/monitors/${websiteId}/notification_channels`);
    expect(attached.map((channel) => channel.id)).toEqual([(up.outputs.channelIds!.value as string[])[0]]);
    const links = await deployment.api<{ id: string; label: string }[]>(`/clients/${up.outputs.clientId!.value}/share-links`);
    expect(links.map((link) => link.label)).toEqual(["Status page for the board"]);
  });

  it("archives the client", async () => {
    await deployment.harness.stack.setConfig("step", { value: "3" });
    const up = await deployment.harness.stack.up();
    expect(up.summary.resourceChanges?.update).toBe(1);
    outputs = up.outputs;
    const client = await deployment.api<Record<string, unknown>>(`/clients/${up.outputs.clientId!.value}`);
    expect(client.archived).toBe(true);
  });

  it("previews no changes after the edits, its only API calls the reads of the refresh before it (Pulumi.yaml: refresh: always)", async () => {
    // Its refresh reads what the edits wrote; that each kind reads back exactly what its update
    // recorded is test/provider/methods.test.ts.
    await deployment.emulator.admin.clearRequestLog();
    await deployment.harness.stack.preview({ expectNoChanges: true });
    const requests = await deployment.emulator.admin.requestLog();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((request) => request.method !== "GET")).toEqual([]);
  });

  it("destroys everything and leaves nothing behind", async () => {
    const destroy = await deployment.harness.stack.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(12);
    for (const collection of collections) {
      expect(await deployment.listAll(collection), collection).toEqual([]);
    }
    expect(await deployment.api(`/clients/${outputs.clientId!.value}/share-links`)).toEqual([]);
    // The API cannot delete a client: destroying one archives it.
    const client = await deployment.api<Record<string, unknown>>(`/clients/${outputs.clientId!.value}`);
    expect(client.archived).toBe(true);
  });
});

/**
 * Agency mode (spec 1, 4.9): objects created with `client_id` live in that client, lists show one
 * client at a time unless `all_clients=true`, references cannot cross clients, and archive,
 * portal settings, share links, teams and templates work.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { useEmulatorWith } from "../support/emulator.js";
import { contractClientOn, dataOf, type Json } from "./support/api.js";

let acme: Json;
let globex: Json;

const on = useEmulatorWith(contractClientOn);
beforeAll(async () => {
  acme = dataOf(await on.api.post("/clients", { name: "Acme", contact_email: "ops@acme.example" }), 201);
  globex = dataOf(await on.api.post("/clients", { name: "Globex" }), 201);
});


const ids = (items: Json[]) => items.map((item) => item.id).sort();

describe("client isolation", () => {
  test("lists show the account's own objects, one client's, or all", async () => {
    const own = dataOf(await on.api.post("/monitors", { name: "Own", url: "https://own.example.com" }), 201);
    const ofAcme = dataOf(await on.api.post("/monitors", { name: "Acme site", url: "https://acme.example", client_id: acme.id }), 201);
    const ofGlobex = dataOf(await on.api.post("/monitors", { name: "Globex site", url: "https://globex.example", client_id: globex.id }), 201);
    expect(ofAcme.client_id).toBe(acme.id);

    expect(ids(dataOf(await on.api.get("/monitors"), 200))).toEqual([own.id]);
    expect(ids(dataOf(await on.api.get(`/monitors?client_id=${acme.id}`), 200))).toEqual([ofAcme.id]);
    expect(ids(dataOf(await on.api.get(`/monitors?client_id=${globex.id}`), 200))).toEqual([ofGlobex.id]);
    expect(ids(dataOf(await on.api.get("/monitors?all_clients=true"), 200))).toEqual(ids([own, ofAcme, ofGlobex]));
  });

  test("every client-scoped kind is filtered the same way", async () => {
    const channel = dataOf(await on.api.post("/notification_channels", { name: "Acme mail", kind: "email", config: { address: "a@acme.example" }, client_id: acme.id }), 201);
    const group = dataOf(await on.api.post("/heartbeat-groups", { name: "Acme jobs", client_id: acme.id }), 201);
    const heartbeat = dataOf(await on.api.post("/heartbeats", { name: "Acme backup", client_id: acme.id, heartbeat_group_id: group.id }), 201);
    const policy = dataOf(await on.api.post("/escalation-policies", { name: "Acme plan", client_id: acme.id, steps: [{ delay_minutes: 0, notification_channel_ids: [channel.id] }] }), 201);
    const incident = dataOf(await on.api.post("/incidents", { title: "Acme outage", client_id: acme.id }), 201);
    const subscription = dataOf(await on.api.post("/webhook-subscriptions", { url: "https://hooks.acme.example", events: ["*"], enabled: false, client_id: acme.id }), 201);
    for (const [path, object] of [
      ["/notification_channels", channel],
      ["/heartbeat-groups", group],
      ["/heartbeats", heartbeat],
      ["/escalation-policies", policy],
      ["/incidents", incident],
      ["/webhook-subscriptions", subscription],
    ] as const) {
      expect(ids(dataOf(await on.api.get(`${path}?client_id=${acme.id}`), 200)), path).toEqual([object.id]);
      expect(ids(dataOf(await on.api.get(`${path}?client_id=${globex.id}`), 200)), path).toEqual([]);
      expect(dataOf(await on.api.get(path), 200).map((item: Json) => item.id), path).not.toContain(object.id);
    }
  });

  test("references cannot cross clients", async () => {
    const acmeChannel = dataOf(await on.api.post("/notification_channels", { name: "Acme pager", kind: "sms", config: { phone_number: "+14155550101" }, client_id: acme.id }), 201);
    const acmePolicy = dataOf(await on.api.post("/escalation-policies", { name: "Acme only", client_id: acme.id, steps: [{ delay_minutes: 0, notification_channel_ids: [acmeChannel.id] }] }), 201);
    const globexMonitor = dataOf(await on.api.post("/monitors", { url: "https://g2.example", client_id: globex.id }), 201);

    const crossPolicy = await on.api.post("/monitors", { url: "https://x.example", client_id: globex.id, escalation_policy_id: acmePolicy.id });
    expect(crossPolicy.status).toBe(422);
    expect(crossPolicy.body.error.details).toEqual({ escalation_policy_id: "belongs to another client" });

    const crossStep = await on.api.post("/escalation-policies", { name: "Mixed", steps: [{ delay_minutes: 0, notification_channel_ids: [acmeChannel.id] }] });
    expect(crossStep.status).toBe(422);
    expect(crossStep.body.error.details).toEqual({ "steps[0].notification_channel_ids[0]": "belongs to another client" });

    const crossAttach = await on.api.post(`/monitors/${globexMonitor.id}/notification_channels/${acmeChannel.id}`);
    expect(crossAttach.status).toBe(404);
    expect(crossAttach.body.error.code).toBe("not_found");
  });

  test("a list naming an unknown client is 404", async () => {
    const answer = await on.api.get("/monitors?client_id=0b5e8a8e-1d7e-4c47-9a43-111111111111");
    expect(answer.status).toBe(404);
  });
});

describe("clients", () => {
  test("archive and unarchive, each refused when already in that state, and nothing new inside an archived client", async () => {
    const client = dataOf(await on.api.post("/clients", { name: "Initech" }), 201);
    const archived = dataOf(await on.api.post(`/clients/${client.id}/archive`), 201);
    expect(archived).toMatchObject({ archived: true, archived_at: expect.any(String) });
    expect((await on.api.post(`/clients/${client.id}/archive`)).status).toBe(409);
    const blocked = await on.api.post("/monitors", { url: "https://initech.example", client_id: client.id });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.code).toBe("conflict");
    const unarchived = dataOf(await on.api.post(`/clients/${client.id}/unarchive`), 201);
    expect(unarchived).toMatchObject({ archived: false, archived_at: null });
    expect((await on.api.post(`/clients/${client.id}/unarchive`)).status).toBe(409);
    expect((await on.api.post("/monitors", { url: "https://initech.example", client_id: client.id })).status).toBe(201);
  });

  test("portal settings have defaults, are replaced by PUT, and are validated", async () => {
    expect(dataOf(await on.api.get(`/clients/${acme.id}/portal-settings`), 200)).toEqual({
      enabled: false,
      title: null,
      logo_url: null,
      primary_color: null,
      custom_domain: null,
      show_incident_history: true,
    });
    const updated = dataOf(await on.api.put(`/clients/${acme.id}/portal-settings`, { enabled: true, title: "Acme status", primary_color: "#0A0B0C" }), 200);
    expect(updated).toMatchObject({ enabled: true, title: "Acme status", primary_color: "#0A0B0C", show_incident_history: true });
    expect(dataOf(await on.api.get(`/clients/${acme.id}/portal-settings`), 200)).toEqual(updated);
    const invalid = await on.api.put(`/clients/${acme.id}/portal-settings`, { primary_color: "blue", logo_url: "not a url" });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.error.details).sort()).toEqual(["logo_url", "primary_color"]);
  });

  test("share links are created with a token and URL, listed, served, and deleted", async () => {
    const monitor = dataOf(await on.api.post("/monitors", { name: "Acme shop", url: "https://shop.acme.example", client_id: acme.id }), 201);
    const link = dataOf(await on.api.post(`/clients/${acme.id}/share-links`, { label: "Board" }), 201);
    expect(link).toMatchObject({ label: "Board", client_id: acme.id, expires_at: null, token: expect.any(String) });
    expect(link.url).toMatch(new RegExp(`/share/${link.token}$`));
    expect(ids(dataOf(await on.api.get(`/clients/${acme.id}/share-links`), 200))).toEqual([link.id]);
    expect(dataOf(await on.api.get(`/clients/${globex.id}/share-links`), 200)).toEqual([]);

    const page = await fetch(link.url);
    expect(page.status).toBe(200);
    const status = (await page.json()) as Json;
    expect(status.data.client).toEqual({ id: acme.id, name: "Acme" });
    expect(status.data.monitors.map((item: Json) => item.id)).toContain(monitor.id);

    expect((await on.api.delete(`/clients/${globex.id}/share-links/${link.id}`)).status).toBe(404);
    expect((await on.api.delete(`/clients/${acme.id}/share-links/${link.id}`)).status).toBe(204);
    expect((await fetch(link.url)).status).toBe(404);
  });

  test("each client has an Owners team holding its contact", async () => {
    const teams = dataOf(await on.api.get(`/clients/${acme.id}/teams`), 200);
    expect(teams).toEqual([expect.objectContaining({ name: "Owners", client_id: acme.id, members: [{ email: "ops@acme.example", role: "owner" }] })]);
  });

  test("a template's defaults apply to monitors and heartbeats created inside its clients", async () => {
    const template = dataOf(
      await on.api.post("/client-templates", {
        name: "Careful",
        monitor_defaults: { interval_seconds: 300, regions: ["eu-north-1", "eu-west-1"] },
        heartbeat_defaults: { grace_period_seconds: 900 },
      }),
      201,
    );
    const client = dataOf(await on.api.post("/clients", { name: "Templated", template_id: template.id }), 201);
    const monitor = dataOf(await on.api.post("/monitors", { url: "https://t.example", client_id: client.id, regions: ["us-west-2"] }), 201);
    expect(monitor).toMatchObject({ interval_seconds: 300, regions: ["us-west-2"] });
    const heartbeat = dataOf(await on.api.post("/heartbeats", { name: "t", client_id: client.id }), 201);
    expect(heartbeat).toMatchObject({ grace_period_seconds: 900, expected_interval_seconds: 3600 });
    expect((await on.api.delete(`/client-templates/${template.id}`)).status).toBe(409);
  });

  test("q and sort work on client lists", async () => {
    const names = dataOf(await on.api.get("/clients?sort=-name&limit=250"), 200).map((client: Json) => client.name);
    expect(names).toEqual([...names].sort().reverse());
    expect(dataOf(await on.api.get("/clients?q=GLOB"), 200).map((client: Json) => client.id)).toEqual([globex.id]);
  });
});

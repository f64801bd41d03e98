/**
 * examples/cron-heartbeats on the real Pulumi engine against the emulator: preview, up, a job
 * checking in with its crontab line's URL, an empty preview, destroy, and nothing left.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { createTestStack, type TestStack } from "../support/pulumi.js";
import { ServiceView, connectionConfig } from "./support.js";

describe("examples/cron-heartbeats", () => {
  let emulator: TestEmulator;
  let service: ServiceView;
  let harness: TestStack;
  let heartbeatIds: Record<string, string>;
  let groupIds: Record<string, string>;
  let crontab: string;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    service = new ServiceView(emulator);
    harness = await createTestStack({ program: "examples/cron-heartbeats", config: connectionConfig(emulator), runner: "cli" });
  });
  afterAll(async () => {
    await harness?.dispose();
    await emulator?.stop();
  });

  it("previews two groups and three heartbeats to create", async () => {
    const preview = await harness.stack.preview();
    expect(preview.changeSummary.create).toBe(1 + 2 + 3);
  });

  it("files each job's heartbeat in its group on up", async () => {
    const up = await harness.stack.up();
    heartbeatIds = up.outputs.heartbeatIds?.value;
    groupIds = up.outputs.groupIds?.value;
    expect(Object.keys(heartbeatIds).sort()).toEqual(["database-backup", "invoice-export", "search-reindex"]);
    expect(await service.find(`/heartbeats/${heartbeatIds["database-backup"]}`)).toMatchObject({
      heartbeat_group_id: groupIds["nightly"],
      expected_interval_seconds: 86400,
      grace_period_seconds: 7200,
      status: "NEW",
    });
    expect(await service.find(`/heartbeats/${heartbeatIds["search-reindex"]}`)).toMatchObject({ heartbeat_group_id: groupIds["frequent"] });
    expect(await service.find(`/heartbeat-groups/${groupIds["nightly"]}`)).toMatchObject({ heartbeat_count: 2 });
    crontab = up.outputs.crontab?.value;
    expect(up.outputs.crontab?.secret).toBe(true);
  });

  it("outputs a crontab line per job that checks in at the job's ping URL", async () => {
    const lines = crontab.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    const backup = await service.find(`/heartbeats/${heartbeatIds["database-backup"]}`);
    expect(lines[0]).toBe(`15 2 * * * /opt/jobs/backup-db.sh && curl -fsS --retry 3 -o /dev/null ${backup?.["ping_url"]}`);
    // The ping URLs are secrets: they are encrypted in state.
    expect(await harness.readStateFile()).not.toContain(backup?.["ping_url"]);
  });

  it("turns a heartbeat UP when its job checks in with that URL", async () => {
    const pingUrl = /curl .* (\S+)$/.exec(crontab.split("\n")[0] as string)?.[1] as string;
    expect((await fetch(pingUrl)).status).toBe(200);
    expect(await service.find(`/heartbeats/${heartbeatIds["database-backup"]}`)).toMatchObject({ status: "UP" });
  });

  it("previews no changes right after up", async () => {
    const preview = await harness.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary.same).toBe(1 + 2 + 3);
  });

  it("destroys the heartbeats and their groups", async () => {
    const destroy = await harness.stack.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(1 + 2 + 3);
    for (const id of Object.values(heartbeatIds)) expect(await service.find(`/heartbeats/${id}`)).toBeUndefined();
    for (const id of Object.values(groupIds)) expect(await service.find(`/heartbeat-groups/${id}`)).toBeUndefined();
  });
});

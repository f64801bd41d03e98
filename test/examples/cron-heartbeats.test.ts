/**
 * examples/cron-heartbeats on the real Pulumi engine against the emulator: preview, up, a job
 * checking in with its crontab line's URL, an empty preview, destroy, and nothing left.
 */
import { describe, expect, it } from "vitest";
import { useExampleStack } from "./support.js";

describe("examples/cron-heartbeats", () => {
  const example = useExampleStack({ program: "examples/cron-heartbeats", runner: "cli-up" });
  let heartbeatIds: Record<string, string>;
  let groupIds: Record<string, string>;
  let crontab: string;

  it("previews two groups and three heartbeats to create", async () => {
    const preview = await example.harness.stack.preview();
    expect(preview.changeSummary.create).toBe(1 + 2 + 3);
  });

  it("files each job's heartbeat in its group on up", async () => {
    const up = await example.harness.stack.up();
    heartbeatIds = up.outputs.heartbeatIds?.value;
    groupIds = up.outputs.groupIds?.value;
    expect(Object.keys(heartbeatIds).sort()).toEqual(["database-backup", "invoice-export", "search-reindex"]);
    expect(await example.service.find(`/heartbeats/${heartbeatIds["database-backup"]}`)).toMatchObject({
      heartbeat_group_id: groupIds["nightly"],
      expected_interval_seconds: 86400,
      grace_period_seconds: 7200,
      status: "NEW",
    });
    expect(await example.service.find(`/heartbeats/${heartbeatIds["search-reindex"]}`)).toMatchObject({ heartbeat_group_id: groupIds["frequent"] });
    expect(await example.service.find(`/heartbeat-groups/${groupIds["nightly"]}`)).toMatchObject({ heartbeat_count: 2 });
    crontab = up.outputs.crontab?.value;
    expect(up.outputs.crontab?.secret).toBe(true);
  });

  it("outputs a crontab line per job that checks in at the job's ping URL", async () => {
    const lines = crontab.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    const backup = await example.service.find(`/heartbeats/${heartbeatIds["database-backup"]}`);
    expect(lines[0]).toBe(`15 2 * * * /opt/jobs/backup-db.sh && curl -fsS --retry 3 -o /dev/null ${backup?.["ping_url"]}`);
    // The ping URLs are secrets: they are encrypted in state.
    expect(await example.harness.readStateFile()).not.toContain(backup?.["ping_url"]);
  });

  it("turns a heartbeat UP when its job checks in with that URL", async () => {
    const pingUrl = /curl .* (\S+)$/.exec(crontab.split("\n")[0] as string)?.[1] as string;
    expect((await fetch(pingUrl)).status).toBe(200);
    expect(await example.service.find(`/heartbeats/${heartbeatIds["database-backup"]}`)).toMatchObject({ status: "UP" });
  });

  it("previews no changes right after up", async () => {
    const preview = await example.harness.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary.same).toBe(1 + 2 + 3);
  });

  it("destroys the heartbeats and their groups", async () => {
    const destroy = await example.harness.stack.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(1 + 2 + 3);
    for (const id of Object.values(heartbeatIds)) expect(await example.service.find(`/heartbeats/${id}`)).toBeUndefined();
    for (const id of Object.values(groupIds)) expect(await example.service.find(`/heartbeat-groups/${id}`)).toBeUndefined();
  });
});

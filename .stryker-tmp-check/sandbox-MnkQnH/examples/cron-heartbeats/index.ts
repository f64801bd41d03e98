/**
 * Heartbeats for a server's cron jobs. Each job gets a heartbeat that expects a check-in as often
 * as the job runs; silence beyond that plus the grace period opens an incident. The jobs are
 * filed in heartbeat groups, and the stack outputs the crontab that makes every job check in after
 * it succeeds:
 *
 *   pulumi stack output crontab --show-secrets | crontab -
 */
// @ts-nocheck

import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

interface CronJob {
  /** Also the heartbeat's name. */
  name: string;
  /** When cron runs the job. */
  schedule: string;
  command: string;
  /** How often the schedule runs the job, in seconds: the heartbeat's expected interval. */
  everySeconds: number;
  /** How late a run may finish before it counts as missed, in seconds. */
  graceSeconds: number;
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/** The groups, and the jobs filed in each. */
const jobs: Record<string, { description: string; jobs: CronJob[] }> = {
  nightly: {
    description: "Long batch jobs that run once a night.",
    jobs: [
      { name: "database-backup", schedule: "15 2 * * *", command: "/opt/jobs/backup-db.sh", everySeconds: DAY, graceSeconds: 2 * HOUR },
      { name: "invoice-export", schedule: "0 4 * * *", command: "/opt/jobs/export-invoices.sh", everySeconds: DAY, graceSeconds: HOUR },
    ],
  },
  frequent: {
    description: "Short jobs that keep data in sync during the day.",
    jobs: [
      { name: "search-reindex", schedule: "*/15 * * * *", command: "/opt/jobs/reindex.sh", everySeconds: 15 * 60, graceSeconds: 5 * 60 },
    ],
  },
};

const crontabLines: pulumi.Output<string>[] = [];
export const heartbeatIds: Record<string, pulumi.Output<string>> = {};
export const groupIds: Record<string, pulumi.Output<string>> = {};

for (const [groupName, group] of Object.entries(jobs)) {
  const heartbeatGroup = new mon.HeartbeatGroup(groupName, { name: groupName, description: group.description });
  groupIds[groupName] = heartbeatGroup.id;
  for (const job of group.jobs) {
    const heartbeat = new mon.Heartbeat(job.name, {
      name: job.name,
      expectedIntervalSeconds: job.everySeconds,
      gracePeriodSeconds: job.graceSeconds,
      heartbeatGroupId: heartbeatGroup.id,
    });
    heartbeatIds[job.name] = heartbeat.id;
    // The check-in runs only when the job succeeds, so a failing job is noticed like a missing one.
    crontabLines.push(pulumi.interpolate`${job.schedule} ${job.command} && curl -fsS --retry 3 -o /dev/null ${heartbeat.pingUrl}`);
  }
}

/** Secret: the ping URLs in it let anyone check in for the jobs. */
export const crontab = pulumi.all(crontabLines).apply((lines) => `${lines.join("\n")}\n`);

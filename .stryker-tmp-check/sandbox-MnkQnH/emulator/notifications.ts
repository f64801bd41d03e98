/**
 * What the emulator would have sent to notification channels (emails, chat messages, pages).
 * It sends nothing to those destinations; the admin API shows the outbox instead.
 */
// @ts-nocheck

import { randomUUID } from "node:crypto";

export type NotificationReason = "incident_opened" | "incident_resolved" | "test_alert" | "channel_test" | "escalation_test";

export interface Notification {
  id: string;
  channel_id: string;
  channel_kind: string;
  reason: NotificationReason;
  subject: string;
  incident_id: string | null;
  monitor_id: string | null;
  sent_at: string;
}

const OUTBOX_CAPACITY = 10_000;

export class NotificationOutbox {
  private entries: Notification[] = [];

  send(notification: Omit<Notification, "id">): Notification {
    const entry = { id: randomUUID(), ...notification };
    this.entries.push(entry);
    if (this.entries.length > OUTBOX_CAPACITY) this.entries.shift();
    return entry;
  }

  list(): Notification[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}

/** The emulator's programmatic entry point, for tests and embedding. */
// @ts-nocheck

export { startEmulator, type EmulatorOptions, type RunningEmulator } from "./emulator.js";
export type { DeliveryOptions } from "./webhooks/deliverer.js";
export type { FaultSpec, Fault } from "./http/faults.js";
export type { RequestLogEntry } from "./http/request-log.js";
export type { Notification } from "./notifications.js";
export { ALL_SCOPES, SANDBOX_KEY_PREFIX } from "./api/auth.js";
export { EVENT_TYPES, type EventType } from "./webhooks/events.js";

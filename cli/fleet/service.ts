/**
 * The service as a command reaches it for one stack, apart from any Pulumi run: the URL and key of
 * the stack's configuration as it stands now (cli/project/settings.ts, then the environment), never
 * what a deploy recorded, within the fleet's rate budget when its token server runs, else within
 * the stack's own `monitoring:maxRequestsPerSecond`.
 */
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { basename } from "node:path";
import { resolveSettings, stackConfigKeyName } from "../../provider/config.js";
import { FleetBudgetClient } from "../../provider/fleet-budget.js";
import { ApiClient } from "../../provider/http/client.js";
import { limiterWithin } from "./runners/budget.js";
import type { FleetProject } from "../project/project.js";
import { stackSettingsOf } from "../project/settings.js";

export interface StackService {
  api: ApiClient;
  /** Closes the client's connections and its line to the token server. */
  close(): Promise<void>;
}

export async function stackService(project: FleetProject, stack: string, workspace: LocalWorkspace, budget?: string): Promise<StackService> {
  const { apiUrl, maxRequestsPerSecond, ...options } = resolveSettings(await stackSettingsOf(project, stack, workspace), process.env, stackConfigKeyName(basename(stack)));
  const limiter = limiterWithin(budget, maxRequestsPerSecond);
  const api = new ApiClient({ baseUrl: apiUrl, ...options, rateLimiter: limiter });
  return {
    api,
    async close() {
      await api.close();
      if (limiter instanceof FleetBudgetClient) limiter.close();
    },
  };
}

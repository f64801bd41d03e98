// @ts-nocheck
// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { type LookupQuery, lookupObject } from "../lookups.js";
import { resourceArguments } from "../runtime.js";

/**
 * The arguments of the {@link Client} resource: A partition for agency mode: monitors, heartbeats, channels and policies created with its `clientId` live inside it. The service cannot delete clients: destroying a Client resource archives it.
 */
export interface ClientArgs {
  /**
   * Display name.
   *
   * API field: `name`.
   */
  name: pulumi.Input<string>;

  /**
   * Free text.
   *
   * API field: `description`.
   */
  description?: pulumi.Input<string>;

  /**
   * The client's website.
   *
   * API field: `website`.
   */
  website?: pulumi.Input<string>;

  /**
   * Address of the client's contact person.
   *
   * API field: `contact_email`.
   */
  contactEmail?: pulumi.Input<string>;

  /**
   * Id (UUID) of the client template whose defaults apply to monitors and heartbeats created inside the client.
   *
   * API field: `template_id`.
   */
  templateId?: pulumi.Input<string>;

  /**
   * Archive (`true`) or unarchive (`false`) the client. Left out, the archive state is not managed.
   *
   * API field: `archived`.
   *
   * Assumption (not shown by the spec): the client object reports it as `archived`.
   */
  archived?: pulumi.Input<boolean>;

  /**
   * The client's status portal. Fields left out take their defaults. Left out entirely, the portal is not managed.
   *
   * API field: `portal_settings`.
   *
   * Assumption (not shown by the spec): the portal settings' keys and defaults are not shown: a key this package does not know is sent as written, and preview warns about it.
   */
  portalSettings?: pulumi.Input<ClientPortalSettingsArgs>;

  /**
   * Id of an existing object to take over instead of creating one: the first deployment reads it and converges it to the declared inputs. Pulumi's `import` does not work for dynamic resources, so this is the way to bring objects created elsewhere under management. Ignored after creation.
   *
   * Steers the provider: never sent to the service.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * A partition for agency mode: monitors, heartbeats, channels and policies created with its `clientId` live inside it. The service cannot delete clients: destroying a Client resource archives it.
 *
 * Assumption: the fields of clients are not shown (spec 2.6): names and rules are this package's.
 */
export class Client extends pulumi.dynamic.Resource {
  /**
   * Display name.
   *
   * API field: `name`.
   */
  declare public readonly name: pulumi.Output<string>;

  /**
   * Free text.
   *
   * API field: `description`.
   */
  declare public readonly description: pulumi.Output<string | undefined>;

  /**
   * The client's website.
   *
   * API field: `website`.
   */
  declare public readonly website: pulumi.Output<string | undefined>;

  /**
   * Address of the client's contact person.
   *
   * API field: `contact_email`.
   */
  declare public readonly contactEmail: pulumi.Output<string | undefined>;

  /**
   * Id (UUID) of the client template whose defaults apply to monitors and heartbeats created inside the client.
   *
   * API field: `template_id`.
   */
  declare public readonly templateId: pulumi.Output<string | undefined>;

  /**
   * Archive (`true`) or unarchive (`false`) the client. Left out, the archive state is not managed.
   *
   * API field: `archived`.
   *
   * Assumption (not shown by the spec): the client object reports it as `archived`.
   */
  declare public readonly archived: pulumi.Output<boolean | undefined>;

  /**
   * The client's status portal. Fields left out take their defaults. Left out entirely, the portal is not managed.
   *
   * API field: `portal_settings`.
   *
   * Assumption (not shown by the spec): the portal settings' keys and defaults are not shown: a key this package does not know is sent as written, and preview warns about it.
   */
  declare public readonly portalSettings: pulumi.Output<ClientPortalSettings | undefined>;

  /**
   * When the client was archived (ISO-8601), while it is archived.
   *
   * API field: `archived_at`.
   */
  declare public readonly archivedAt: pulumi.Output<string>;

  /**
   * Declares a client.
   *
   * A partition for agency mode: monitors, heartbeats, channels and policies created with its `clientId` live inside it. The service cannot delete clients: destroying a Client resource archives it.
   *
   * @param name The unique name of the resource.
   * @param args The arguments of the client.
   * @param opts A bag of options that control this resource's behavior.
   */
  constructor(name: string, args: ClientArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArguments("Client", name, args, opts));
  }
}

/**
 * Finds a client managed elsewhere, by id or by exact name (among the objects of one client, or outside any client).
 * The connection comes from the stack configuration (`monitoring:apiUrl`, `monitoring:apiKey`) or MONITORING_API_URL / MONITORING_API_KEY.
 */
export function getClient(query: LookupQuery): Promise<GetClientResult> {
  return lookupObject<GetClientResult>("Client", query);
}

/**
 * A client found by {@link getClient}: its fields as the service returns them, associations included. Secret fields come as secret Outputs, so that exporting them keeps them encrypted in state.
 */
export interface GetClientResult {
  /**
   * The client's id.
   */
  readonly id: string;

  /**
   * Display name.
   *
   * API field: `name`.
   */
  readonly name?: string;

  /**
   * Free text.
   *
   * API field: `description`.
   */
  readonly description?: string;

  /**
   * The client's website.
   *
   * API field: `website`.
   */
  readonly website?: string;

  /**
   * Address of the client's contact person.
   *
   * API field: `contact_email`.
   */
  readonly contactEmail?: string;

  /**
   * Id (UUID) of the client template whose defaults apply to monitors and heartbeats created inside the client.
   *
   * API field: `template_id`.
   */
  readonly templateId?: string;

  /**
   * Archive (`true`) or unarchive (`false`) the client. Left out, the archive state is not managed.
   *
   * API field: `archived`.
   *
   * Assumption (not shown by the spec): the client object reports it as `archived`.
   */
  readonly archived?: boolean;

  /**
   * The client's status portal. Fields left out take their defaults. Left out entirely, the portal is not managed.
   *
   * API field: `portal_settings`.
   *
   * Assumption (not shown by the spec): the portal settings' keys and defaults are not shown: a key this package does not know is sent as written, and preview warns about it.
   */
  readonly portalSettings?: ClientPortalSettings;

  /**
   * When the client was archived (ISO-8601), while it is archived.
   *
   * API field: `archived_at`.
   */
  readonly archivedAt?: string;
}

/**
 * A client portal settings as given to the provider.
 */
export interface ClientPortalSettingsArgs {
  /**
   * Whether the client's status portal is published.
   *
   * Default: `false` (applied by the provider).
   *
   * API field: `enabled`.
   */
  enabled?: pulumi.Input<boolean>;

  /**
   * Portal title.
   *
   * API field: `title`.
   */
  title?: pulumi.Input<string>;

  /**
   * http(s) URL of the logo shown on the portal.
   *
   * API field: `logo_url`.
   */
  logoUrl?: pulumi.Input<string>;

  /**
   * Accent color as `#RRGGBB`.
   *
   * API field: `primary_color`.
   */
  primaryColor?: pulumi.Input<string>;

  /**
   * Domain the portal is served on instead of the service's.
   *
   * API field: `custom_domain`.
   */
  customDomain?: pulumi.Input<string>;

  /**
   * Whether the portal lists past incidents.
   *
   * Default: `true` (applied by the provider).
   *
   * API field: `show_incident_history`.
   */
  showIncidentHistory?: pulumi.Input<boolean>;
}

/**
 * A client portal settings as the provider reports it.
 */
export interface ClientPortalSettings {
  /**
   * Whether the client's status portal is published.
   *
   * Default: `false` (applied by the provider).
   *
   * API field: `enabled`.
   */
  enabled: boolean;

  /**
   * Portal title.
   *
   * API field: `title`.
   */
  title?: string;

  /**
   * http(s) URL of the logo shown on the portal.
   *
   * API field: `logo_url`.
   */
  logoUrl?: string;

  /**
   * Accent color as `#RRGGBB`.
   *
   * API field: `primary_color`.
   */
  primaryColor?: string;

  /**
   * Domain the portal is served on instead of the service's.
   *
   * API field: `custom_domain`.
   */
  customDomain?: string;

  /**
   * Whether the portal lists past incidents.
   *
   * Default: `true` (applied by the provider).
   *
   * API field: `show_incident_history`.
   */
  showIncidentHistory: boolean;
}

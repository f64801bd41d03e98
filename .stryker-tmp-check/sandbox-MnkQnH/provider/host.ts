/**
 * The object the dynamic provider host calls, as this module's whole export
 * (`pulumi-monitoring/host`): the dispatcher, which hands each call to its kind's provider.
 *
 * It is a module of its own because of how Pulumi's closure serializer treats modules: a captured
 * object that is the export of a module installed under node_modules is written as
 * `require("<package>/<export>")`, not copied. So the `__provider` text that every resource stores
 * twice, in its inputs and its outputs, is that one call in the serializer's fixed wrapping
 * (provider/dynamic.ts).
 */
// @ts-nocheck

import { dispatcher } from "./index.js";

export = dispatcher;

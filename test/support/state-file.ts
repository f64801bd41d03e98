/**
 * A test stack's state read from its private file backend, as `pulumi stack export --show-secrets`
 * and `pulumi stack output --show-secrets` show it, its secrets opened with the tests' key
 * (test/support/passphrase.ts). Each of those CLI runs loads the stack and derives the passphrase's
 * key again, about 0.4 CPU-s, for what the state file already holds. A state the tests' key cannot
 * open (a stack on a shared backend, or one no update has written yet) gives undefined: the caller
 * asks the CLI. test/e2e/secrets.test.ts checks the result against the CLI's export.
 */
import type { Deployment, OutputMap } from "@pulumi/pulumi/automation";
import { join } from "node:path";
import { decryptedForTestStacks, testEncryptionSalt } from "./passphrase.js";

/** Where a file backend in `backendDir` keeps the state of a project's stack. */
export function stateFilePath(backendDir: string, project: string, stack: string): string {
  return join(backendDir, ".pulumi", "stacks", project, `${stack}.json`);
}

/** The key and value by which Pulumi marks a secret in a state (sdk/go/common/resource/sig). */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE_VALUE = "1b47061264138c4ac30d75fd1eb44270";

type Sealed = { [SECRET_SIGNATURE]: string; ciphertext: string };
type Opened = { [SECRET_SIGNATURE]: string; plaintext: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isSealed = (value: unknown): value is Sealed => isObject(value) && value[SECRET_SIGNATURE] === SECRET_SIGNATURE_VALUE && typeof value["ciphertext"] === "string";
const isOpened = (value: unknown): value is Opened => isObject(value) && value[SECRET_SIGNATURE] === SECRET_SIGNATURE_VALUE && typeof value["plaintext"] === "string";

/** `value` with every secret's ciphertext replaced by its plaintext, as `--show-secrets` exports it. */
function opened(value: unknown): unknown {
  if (isSealed(value)) return { [SECRET_SIGNATURE]: SECRET_SIGNATURE_VALUE, plaintext: decryptedForTestStacks(value.ciphertext) };
  if (Array.isArray(value)) return value.map(opened);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, opened(entry)]));
  return value;
}

/** An opened value with every secret replaced by the value it holds, as `stack output --show-secrets` prints it. */
function revealed(value: unknown): unknown {
  if (isOpened(value)) return revealed(JSON.parse(value.plaintext));
  if (Array.isArray(value)) return value.map(revealed);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, revealed(entry)]));
  return value;
}

/** The state file's deployment with its secrets opened, or undefined when the tests' key cannot open it. */
export function exportedFromStateFile(text: string): Deployment | undefined {
  const { version, checkpoint } = JSON.parse(text) as { version: number; checkpoint?: { latest?: { secrets_providers?: { type?: string; state?: { salt?: string } } } } };
  const latest = checkpoint?.latest;
  if (latest === undefined) return undefined;
  const provider = latest.secrets_providers;
  if (provider !== undefined && (provider.type !== "passphrase" || provider.state?.salt !== testEncryptionSalt)) return undefined;
  return { version, deployment: opened(latest) };
}

/**
 * The stack's outputs in a deployment from {@link exportedFromStateFile}: an output is secret when it
 * is a secret as a whole, as the Automation API's `outputs()` marks it; secrets inside a value show.
 */
export function outputsOf(exported: Deployment): OutputMap {
  const resources = (exported.deployment as { resources?: Array<{ type: string; outputs?: Record<string, unknown> }> }).resources ?? [];
  const outputs = resources.find((resource) => resource.type === "pulumi:pulumi:Stack")?.outputs ?? {};
  return Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, { value: revealed(value), secret: isOpened(value) }]));
}

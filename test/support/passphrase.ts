/**
 * The tests' passphrase, and values sealed and opened with it the way the CLI's passphrase secrets
 * manager does it (pkg/secrets/passphrase in pulumi/pulumi): AES-256-GCM under a key that
 * PBKDF2-SHA256 derives from the passphrase and a salt in 1,000,000 rounds.
 *
 * Every test stack shares one salt, so the key is derived here once, ahead of time: a CLI run
 * (`stack init`, `config set --secret`) derives it again each time, about 0.4 CPU-s for a line of
 * YAML. test/suite/passphrase.test.ts derives it from the passphrase and checks it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

export const testPassphrase = "correct horse battery staple";

/** The salt of every test stack, as the CLI writes it in base64. */
export const testSalt = "EcZQ2aTyIV0=";

/** PBKDF2-SHA256(testPassphrase, testSalt, 1,000,000 rounds, 32 bytes), in hex. */
export const testKey = Buffer.from("671fb1c2c0b2214f0f55169719337315ab30a56fecd269c926c5b958487bc170", "hex");

/**
 * A stack settings file's `encryptionsalt`: the salt, then "pulumi" encrypted under the key, by
 * which the CLI tells a wrong passphrase.
 */
export const testEncryptionSalt = `v1:${testSalt}:v1:qt/AEN1fq19WRQ+X:FKvhTV6M29ozku03ohEIgyf5GXiWEw==`;

/** `value` as `pulumi config set --secret` stores it under `secure:` (v1:nonce:ciphertext and tag). */
export function encryptedForTestStacks(value: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", testKey, nonce);
  const sealed = Buffer.concat([cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
}

/** What `encryptedForTestStacks` (or the CLI, under the tests' salt) sealed, opened again. */
export function decryptedForTestStacks(value: string): string {
  const [version, nonce, sealed] = value.split(":");
  if (version !== "v1" || nonce === undefined || sealed === undefined) throw new Error(`not a value the passphrase secrets manager sealed: ${value.slice(0, 20)}…`);
  const bytes = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", testKey, Buffer.from(nonce, "base64"));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
}

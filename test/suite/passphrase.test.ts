/**
 * The test stacks' settings, encrypted ahead of time (test/support/passphrase.ts): the key is the
 * one the CLI derives from the passphrase, and what it encrypts opens as the CLI opens it.
 */
import { createDecipheriv, pbkdf2Sync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptedForTestStacks, encryptedForTestStacks, testEncryptionSalt, testKey, testPassphrase, testSalt } from "../support/passphrase.js";

/** Opens a `v1:nonce:ciphertext` value as the CLI's symmetric crypter does. */
function opened(value: string, key: Buffer): string {
  const [version, nonce, sealed] = value.split(":");
  expect(version).toBe("v1");
  const bytes = Buffer.from(sealed!, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce!, "base64"));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
}

describe("the test stacks' passphrase", () => {
  it("has the key the CLI derives from it and the salt", () => {
    expect(pbkdf2Sync(testPassphrase, Buffer.from(testSalt, "base64"), 1_000_000, 32, "sha256").equals(testKey)).toBe(true);
  });

  it("writes an encryptionsalt the CLI accepts: the salt, then \"pulumi\" under the key", () => {
    expect(testEncryptionSalt.startsWith(`v1:${testSalt}:`)).toBe(true);
    expect(opened(testEncryptionSalt.slice(`v1:${testSalt}:`.length), testKey)).toBe("pulumi");
  });

  it("encrypts each value under a nonce of its own", () => {
    const [first, second] = [encryptedForTestStacks("pls_secret"), encryptedForTestStacks("pls_secret")];
    expect(first).not.toBe(second);
    expect([opened(first, testKey), opened(second, testKey)]).toEqual(["pls_secret", "pls_secret"]);
    expect(first).not.toContain("pls_secret");
  });

  it("opens what it sealed, and refuses a value whose sealed bytes were changed", () => {
    const sealed = encryptedForTestStacks("pls_secret");
    expect(decryptedForTestStacks(sealed)).toBe("pls_secret");
    const [version, nonce, bytes] = sealed.split(":");
    const changed = Buffer.from(bytes!, "base64");
    changed[0] = changed[0]! ^ 1;
    expect(() => decryptedForTestStacks(`${version}:${nonce}:${changed.toString("base64")}`)).toThrow();
  });
});

/**
 * The test stacks' settings, encrypted ahead of time (test/support/passphrase.ts): the key is the
 * one the CLI derives from the passphrase, and what it encrypts opens again. That the CLI opens it
 * too, every deploy proves (it decrypts the API key); that the CLI's own values open here,
 * test/e2e/secrets.test.ts.
 */
import { pbkdf2Sync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptedForTestStacks, encryptedForTestStacks, testEncryptionSalt, testKey, testPassphrase, testSalt } from "../support/passphrase.js";

describe("the test stacks' passphrase", () => {
  it("has the key the CLI derives from it and the salt", () => {
    expect(pbkdf2Sync(testPassphrase, Buffer.from(testSalt, "base64"), 1_000_000, 32, "sha256").equals(testKey)).toBe(true);
  });

  it("writes an encryptionsalt the CLI accepts: the salt, then \"pulumi\" under the key", () => {
    expect(testEncryptionSalt.startsWith(`v1:${testSalt}:`)).toBe(true);
    expect(decryptedForTestStacks(testEncryptionSalt.slice(`v1:${testSalt}:`.length))).toBe("pulumi");
  });

  it("encrypts each value under a nonce of its own", () => {
    const [first, second] = [encryptedForTestStacks("pls_secret"), encryptedForTestStacks("pls_secret")];
    expect(first).not.toBe(second);
    expect([decryptedForTestStacks(first), decryptedForTestStacks(second)]).toEqual(["pls_secret", "pls_secret"]);
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

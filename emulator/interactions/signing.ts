/**
 * Ed25519 request signing, as the service signs the interactions it delivers: the
 * signature covers the timestamp (`X-Signature-Timestamp`, Unix seconds as a decimal
 * string) followed by the exact body bytes, and travels hex-encoded in
 * `X-Signature-Ed25519`; the application's public key is the raw 32-byte key in hex
 * (what the developer portal shows and what `verifyKey(body, signature, timestamp,
 * publicKey)` of discord-interactions takes). node:crypto does Ed25519; no dependency.
 */
import crypto from "node:crypto";

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
/** DER prefix of an SPKI Ed25519 public key; the 32-byte key follows it. */
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export interface SigningKey {
  /** The raw public key, 64 hex characters. */
  readonly publicKeyHex: string;
  readonly privateKey: crypto.KeyObject;
}

/** A key pair from a 32-byte seed in hex, or a new random one. */
export function signingKey(seedHex?: string): SigningKey {
  const privateKey =
    seedHex === undefined
      ? crypto.generateKeyPairSync("ed25519").privateKey
      : crypto.createPrivateKey({
          key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(seedHex, "hex")]),
          format: "der",
          type: "pkcs8",
        });
  const spki = crypto.createPublicKey(privateKey).export({ format: "der", type: "spki" });
  return { publicKeyHex: spki.subarray(SPKI_ED25519_PREFIX.length).toString("hex"), privateKey };
}

/** The two signature headers for a body sent at `timestampSeconds`. */
export function signatureHeaders(
  key: SigningKey,
  body: string,
  timestampSeconds: number,
): { "X-Signature-Ed25519": string; "X-Signature-Timestamp": string } {
  const timestamp = String(Math.floor(timestampSeconds));
  const signature = crypto.sign(null, Buffer.from(timestamp + body, "utf8"), key.privateKey);
  return { "X-Signature-Ed25519": signature.toString("hex"), "X-Signature-Timestamp": timestamp };
}

/** Checks a signature made by `signatureHeaders` (for handlers written in tests). */
export function verifySignature(
  publicKeyHex: string,
  body: string,
  signatureHex: string,
  timestamp: string,
): boolean {
  try {
    const key = crypto.createPublicKey({
      key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(publicKeyHex, "hex")]),
      format: "der",
      type: "spki",
    });
    return crypto.verify(
      null,
      Buffer.from(timestamp + body, "utf8"),
      key,
      Buffer.from(signatureHex, "hex"),
    );
  } catch {
    return false;
  }
}

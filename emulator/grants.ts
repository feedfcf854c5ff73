/**
 * The OAuth2 grants the emulator has issued: access tokens (client credentials and users'),
 * authorization codes and refresh tokens. Part of the persisted state and of a store
 * transaction; an expired token or code is dropped when the next one is issued.
 */
import type { PersistedState } from "./stateFile";

interface IssuedToken {
  readonly token: string;
  readonly applicationId: string;
  readonly scopes: readonly string[];
  /** Emulator-clock milliseconds. */
  readonly expiresAt: number;
  /** The consenting user and the authorization, for tokens of the authorization-code flow. */
  readonly userId?: string | undefined;
  readonly grantId?: string | undefined;
}

/** An authorization code: single use, bound to its redirect URI and PKCE challenge. */
export interface AuthorizationCode {
  readonly code: string;
  readonly grantId: string;
  readonly applicationId: string;
  readonly userId: string;
  readonly scopes: readonly string[];
  readonly redirectUri: string;
  /**
   * Whether the authorize request named `redirect_uri` (RFC 6749 section 4.1.3: only then
   * must the token request repeat it); absent in codes persisted before it was recorded.
   */
  readonly redirectUriGiven?: boolean | undefined;
  /** S256 challenge (base64url of SHA-256 of the verifier); absent without PKCE. */
  readonly codeChallenge?: string | undefined;
  readonly expiresAt: number;
  readonly used: boolean;
}

/** A refresh token of an authorization; spent when rotated. */
interface RefreshToken {
  readonly token: string;
  readonly grantId: string;
  readonly applicationId: string;
  readonly userId: string;
  readonly scopes: readonly string[];
  /**
   * Rotated away: kept (not deleted) so that presenting it again is recognised as reuse
   * and revokes its authorization (RFC 9700 section 4.14.2).
   */
  readonly spent?: boolean | undefined;
}

/** The grants' part of the state file. */
type PersistedGrants = Pick<PersistedState, "tokens" | "codes" | "refreshTokens">;

export class Grants {
  private tokens = new Map<string, IssuedToken>();
  private codes = new Map<string, AuthorizationCode>();
  private refreshTokens = new Map<string, RefreshToken>();

  /**
   * Every token and code ever issued or restored, kept when it is dropped (expired,
   * revoked, spent, rolled back, reset): the request log still holds the requests made
   * with it, and the page redacts it there (issue 50).
   */
  private readonly everHeld = new Set<string>();

  /** `now`: the emulator's clock, in milliseconds. */
  constructor(private readonly now: () => number) {}

  /** Every token and code this emulator has issued or held: the page redacts them. */
  secrets(): string[] {
    return [...this.everHeld];
  }

  issueToken(token: IssuedToken): void {
    const now = this.now();
    for (const [key, t] of this.tokens) if (t.expiresAt <= now) this.tokens.delete(key);
    this.tokens.set(token.token, token);
    this.everHeld.add(token.token);
  }

  /** An issued access token (client credentials or a user's), if not expired or revoked. */
  issuedToken(token: string): IssuedToken | undefined {
    const t = this.tokens.get(token);
    if (!t || t.expiresAt <= this.now()) return undefined;
    return t;
  }

  putCode(code: AuthorizationCode): void {
    const now = this.now();
    for (const [key, c] of this.codes) if (c.expiresAt <= now) this.codes.delete(key);
    this.codes.set(code.code, code);
    this.everHeld.add(code.code);
  }

  code(code: string): AuthorizationCode | undefined {
    return this.codes.get(code);
  }

  putRefreshToken(token: RefreshToken): void {
    this.refreshTokens.set(token.token, token);
    this.everHeld.add(token.token);
  }

  refreshToken(token: string): RefreshToken | undefined {
    return this.refreshTokens.get(token);
  }

  /** Marks a rotated refresh token spent; a spent token presented again is reuse. */
  spendRefreshToken(token: string): void {
    const found = this.refreshTokens.get(token);
    if (found) this.refreshTokens.set(token, { ...found, spent: true });
  }

  /** Revokes an authorization: every access and refresh token issued for it. */
  revokeGrant(grantId: string): void {
    for (const [key, t] of this.tokens) if (t.grantId === grantId) this.tokens.delete(key);
    for (const [key, t] of this.refreshTokens)
      if (t.grantId === grantId) this.refreshTokens.delete(key);
  }

  /** Saves the grants as they are; the function returned brings them back (a rollback). */
  checkpoint(): () => void {
    const saved = {
      tokens: new Map(this.tokens),
      codes: new Map(this.codes),
      refreshTokens: new Map(this.refreshTokens),
    };
    return () => {
      this.tokens = saved.tokens;
      this.codes = saved.codes;
      this.refreshTokens = saved.refreshTokens;
    };
  }

  clear(): void {
    this.tokens = new Map();
    this.codes = new Map();
    this.refreshTokens = new Map();
  }

  persisted(): PersistedGrants {
    return {
      tokens: [...this.tokens.values()].map((t) => ({ ...t, scopes: [...t.scopes] })),
      codes: [...this.codes.values()].map((c) => ({ ...c, scopes: [...c.scopes] })),
      refreshTokens: [...this.refreshTokens.values()].map((t) => ({ ...t, scopes: [...t.scopes] })),
    };
  }

  restore(state: PersistedGrants): void {
    for (const t of state.tokens) this.tokens.set(t.token, t);
    for (const c of state.codes) this.codes.set(c.code, c);
    for (const t of state.refreshTokens) this.refreshTokens.set(t.token, t);
    for (const key of [...this.tokens.keys(), ...this.codes.keys(), ...this.refreshTokens.keys()]) {
      this.everHeld.add(key);
    }
  }
}

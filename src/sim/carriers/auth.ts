/**
 * How the simulated carriers authenticate, so the service's real auth code runs against them:
 * the first line (by SCAC) is an OAuth2 client-credentials carrier whose tokens expire, the
 * second wants a static API-key header, the rest a static bearer token. Credentials derive from
 * the world's seed; they only ever guard servers on the loopback interface.
 */
import { randomBytes } from 'node:crypto';

export type SimCarrierAuth =
  | { type: 'oauth2_client_credentials'; clientId: string; clientSecret: string }
  | { type: 'header'; header: string; key: string }
  | { type: 'bearer'; token: string };

export const SIM_API_KEY_HEADER = 'X-API-Key';
/** Real seconds a simulated access token lives; short so refresh paths run in every session. */
export const SIM_TOKEN_LIFETIME_S = 300;

export function simCarrierAuth(
  scacs: readonly string[],
  seed: number,
): Map<string, SimCarrierAuth> {
  const auth = new Map<string, SimCarrierAuth>();
  scacs.forEach((scac, index) => {
    const secret = `sim-${scac.toLowerCase()}-${seed}`;
    if (index === 0) {
      auth.set(scac, {
        type: 'oauth2_client_credentials',
        clientId: `quayside-${scac.toLowerCase()}`,
        clientSecret: `${secret}-client-secret`,
      });
    } else if (index === 1) {
      auth.set(scac, { type: 'header', header: SIM_API_KEY_HEADER, key: `${secret}-key` });
    } else {
      auth.set(scac, { type: 'bearer', token: `${secret}-token` });
    }
  });
  return auth;
}

/** Issues and checks expiring access tokens for the OAuth2 carriers (real time). */
export class SimTokenIssuer {
  private readonly tokens = new Map<string, { scac: string; expiresAt: number }>();
  issued = 0;

  constructor(
    private readonly lifetimeS = SIM_TOKEN_LIFETIME_S,
    private readonly now: () => number = Date.now,
  ) {}

  issue(scac: string): { access_token: string; token_type: 'Bearer'; expires_in: number } {
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { scac, expiresAt: this.now() + this.lifetimeS * 1000 });
    this.issued += 1;
    return { access_token: token, token_type: 'Bearer', expires_in: this.lifetimeS };
  }

  valid(scac: string, token: string): boolean {
    const entry = this.tokens.get(token);
    if (!entry) return false;
    if (entry.expiresAt <= this.now()) {
      this.tokens.delete(token);
      return false;
    }
    return entry.scac === scac;
  }

  /** Makes every token issued so far invalid, as a carrier rotating keys would. */
  revokeAll(): void {
    this.tokens.clear();
  }
}

/** The `auth` block of a feeds document for one simulated carrier. */
export function feedsAuthBlock(auth: SimCarrierAuth, tokenUrl: string): Record<string, unknown> {
  switch (auth.type) {
    case 'oauth2_client_credentials':
      return {
        type: 'oauth2_client_credentials',
        token_url: tokenUrl,
        client_id: auth.clientId,
        client_secret: auth.clientSecret,
      };
    case 'header':
      return { type: 'headers', headers: { [auth.header]: auth.key } };
    case 'bearer':
      return { type: 'bearer', token: auth.token };
  }
}

/**
 * Turns a configured auth block into the headers a feed request carries. Static kinds (headers,
 * bearer, basic) are computed once; OAuth2 client credentials fetches a token from the carrier's
 * token endpoint, caches it until shortly before it expires, lets concurrent requests share one
 * fetch, and drops it when the carrier answers 401 so the caller can retry once with a new one.
 */
import type { FeedAuth } from '../config/load';
import { redactCredentials, secretProblem } from '../config/secret';
import { DEFAULT_TIMEOUT_MS, excerpt, type RequestSigner } from '../http';

export interface Authenticator extends RequestSigner {
  readonly kind: FeedAuth['type'];
  /** Headers for the next request; rejects with `AuthError` when a token cannot be obtained. */
  headers(): Promise<Record<string, string>>;
  /**
   * The source answered 401 to a request sent with `used`. Returns true when a fresh credential
   * may differ (a cached token was dropped), i.e. one retry is worth it.
   */
  rejected(used: Record<string, string>): boolean;
}

export class AuthError extends Error {
  /** True when the endpoint answered and refused; false when it could not be reached. */
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

export interface AuthOptions {
  now?: () => number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** A token is renewed this long before the expiry the endpoint announced. */
export const TOKEN_RENEW_MARGIN_MS = 60_000;
/** Used when a token endpoint does not say how long a token lives. */
export const DEFAULT_TOKEN_LIFETIME_MS = 5 * 60_000;

export function createAuthenticator(auth: FeedAuth, options: AuthOptions = {}): Authenticator {
  const credential = credentialAuthenticator(auth, options);
  // Auth blocks compose: static headers (an API key header) go next to the credential.
  const extra = 'headers' in auth && auth.type !== 'headers' ? auth.headers : undefined;
  if (!extra || Object.keys(extra).length === 0) return credential;
  const fixed = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, v.reveal()]));
  return {
    kind: credential.kind,
    headers: async () => ({ ...fixed, ...(await credential.headers()) }),
    rejected: (used) => credential.rejected(used),
  };
}

function credentialAuthenticator(auth: FeedAuth, options: AuthOptions): Authenticator {
  switch (auth.type) {
    case 'none':
      return staticAuth('none', {});
    case 'headers':
      return staticAuth(
        'headers',
        Object.fromEntries(Object.entries(auth.headers).map(([k, v]) => [k, v.reveal()])),
      );
    case 'bearer':
      return staticAuth('bearer', { Authorization: `Bearer ${auth.token.reveal()}` });
    case 'basic': {
      const pair = `${auth.username.reveal()}:${auth.password.reveal()}`;
      return staticAuth('basic', {
        Authorization: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`,
      });
    }
    case 'oauth2_client_credentials':
      return new ClientCredentials(auth, options);
  }
}

function staticAuth(kind: FeedAuth['type'], headers: Record<string, string>): Authenticator {
  return { kind, headers: () => Promise.resolve({ ...headers }), rejected: () => false };
}

type OAuth2Auth = Extract<FeedAuth, { type: 'oauth2_client_credentials' }>;

class ClientCredentials implements Authenticator {
  readonly kind = 'oauth2_client_credentials';
  private token: { value: string; renewAt: number } | null = null;
  private pending: Promise<string> | null = null;
  /** How many tokens were fetched; exposed for metrics and tests. */
  fetches = 0;

  constructor(
    private readonly auth: OAuth2Auth,
    private readonly options: AuthOptions,
  ) {}

  async headers(): Promise<Record<string, string>> {
    return { Authorization: `Bearer ${await this.currentToken()}` };
  }

  rejected(used: Record<string, string>): boolean {
    // Only drop the token the failed request carried: a concurrent request may already have
    // replaced it, and that new token deserves its chance.
    if (this.token && used.Authorization === `Bearer ${this.token.value}`) this.token = null;
    return true;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private currentToken(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return Promise.resolve(this.token.value);
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    try {
      return await this.requestToken();
    } catch (err) {
      // The endpoint's answer may quote what it was sent (the client id names the client; it
      // stays, so a refusal says which one).
      if (err instanceof AuthError) {
        const secret = this.auth.clientSecret.reveal();
        throw new AuthError(redactCredentials(err.message, [secret]), err.refused);
      }
      throw err;
    }
  }

  private async requestToken(): Promise<string> {
    this.fetches += 1;
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.auth.clientId.reveal(),
      client_secret: this.auth.clientSecret.reveal(),
    });
    if (this.auth.scope) form.set('scope', this.auth.scope);
    if (this.auth.audience) form.set('audience', this.auth.audience);
    const doFetch = this.options.fetch ?? fetch;
    let response: Response;
    let text: string;
    try {
      response = await doFetch(this.auth.tokenUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: form.toString(),
        // Never carry client credentials to another host.
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      text = await response.text();
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      const reason = cause instanceof Error ? cause.message : (err as Error).message;
      throw new AuthError(`token endpoint ${this.auth.tokenUrl} unreachable: ${reason}`, false);
    }
    if (response.status >= 500) {
      // The token service is down, not our credentials wrong: retry later like any outage.
      throw new AuthError(
        `token endpoint ${this.auth.tokenUrl} failed: HTTP ${response.status} ${excerpt(text, 120)}`,
        false,
      );
    }
    if (!response.ok) {
      throw new AuthError(
        `token endpoint ${this.auth.tokenUrl} refused the client credentials: HTTP ${response.status} ${excerpt(text, 120)}`,
        true,
      );
    }
    let body: { access_token?: unknown; expires_in?: unknown; token_type?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new AuthError(`token endpoint ${this.auth.tokenUrl} answered without JSON`, true);
    }
    if (typeof body.access_token !== 'string' || body.access_token === '') {
      throw new AuthError(
        `token endpoint ${this.auth.tokenUrl} answered without access_token`,
        true,
      );
    }
    // It goes into a header: one that cannot is the endpoint's fault, said without quoting it.
    const problem = secretProblem(body.access_token, 'bearer');
    if (problem) {
      throw new AuthError(
        `token endpoint ${this.auth.tokenUrl} answered an access_token that ${problem}`,
        true,
      );
    }
    const lifetimeMs =
      typeof body.expires_in === 'number' && body.expires_in > 0
        ? body.expires_in * 1000
        : DEFAULT_TOKEN_LIFETIME_MS;
    // Short-lived tokens renew at half their life rather than never being reused.
    const margin = Math.min(TOKEN_RENEW_MARGIN_MS, lifetimeMs / 2);
    this.token = { value: body.access_token, renewAt: this.now() + lifetimeMs - margin };
    return body.access_token;
  }
}

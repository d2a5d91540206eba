// Bearer tokens: HS256 JWTs (algorithm pinned) backed by a session row that logout revokes.
import fastifyJwt from '@fastify/jwt';
import { SERVER_ERRORS, TOKEN_LIFETIME_SECONDS } from '@lectern/shared-schema';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../db/connection';
import { unauthorized } from '../services/errors';
import { createSession, isSessionActive, type TokenClaims } from '../services/sessions';
import { cachedVerifier } from './verified-tokens';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate` on protected routes. */
    userId: string;
    sessionId: string;
  }
  interface FastifyContextConfig {
    /**
     * The route asks whether the token's session is still active in its own query (one round trip instead
     * of two) and answers 401 itself when not: `authenticate` then only verifies the token's signature.
     * For the most read route and the two searches alone, whose services are tested for a revoked session's
     * 401.
     */
    sessionCheckedByRoute?: boolean;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void;
    issueToken(userId: string): Promise<string>;
    /** The signed-in user when the request carries a valid Bearer token, else null (never throws). */
    signedInUser(request: FastifyRequest): Promise<string | null>;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

export const authPlugin = fp(async (app: FastifyInstance, options: { secret: string; db: Queryable }) => {
  await app.register(fastifyJwt, {
    secret: options.secret,
    sign: { algorithm: 'HS256', expiresIn: TOKEN_LIFETIME_SECONDS },
    // Verified tokens are kept by verifiedToken below, not by fast-jwt's cache (which hashes every token).
    verify: { algorithms: ['HS256'] },
  });
  app.decorateRequest('userId', '');
  app.decorateRequest('sessionId', '');

  app.decorate('issueToken', async (userId: string) => app.jwt.sign(await createSession(options.db, userId)));

  // The verifier directly: request.jwtVerify() adds callback plumbing that costs on every request.
  const verifiedToken = cachedVerifier((token: string) =>
    app.jwt.verify<TokenClaims & { exp?: number }>(token),
  );

  /** The token's claims when it is well signed and unexpired; 401 otherwise. */
  function verifiedClaims(request: FastifyRequest): TokenClaims {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    let claims: TokenClaims;
    try {
      claims = verifiedToken(token);
    } catch {
      throw unauthorized(SERVER_ERRORS.unauthorized);
    }
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string')
      throw unauthorized(SERVER_ERRORS.unauthorized);
    return claims;
  }

  function signIn(request: FastifyRequest, claims: TokenClaims): void {
    request.userId = claims.sub;
    request.sessionId = claims.sid;
  }

  async function authenticateRequest(request: FastifyRequest): Promise<void> {
    const claims = verifiedClaims(request);
    if (!(await isSessionActive(options.db, claims))) throw unauthorized(SERVER_ERRORS.unauthorized);
    signIn(request, claims);
  }

  // Routes open to anonymous visitors that show more to the owner (archived images) ask this.
  app.decorate('signedInUser', async (request: FastifyRequest) => {
    if (!request.headers.authorization) return null;
    try {
      await authenticateRequest(request);
      return request.userId;
    } catch {
      return null;
    }
  });

  // A callback-style hook: every signed-in request passes here. Its session is asked of the database each
  // time (services/sessions.ts): a logout on another node must be refused here at once.
  app.decorate(
    'authenticate',
    (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      if (request.routeOptions.config.sessionCheckedByRoute === true) {
        try {
          signIn(request, verifiedClaims(request));
        } catch (error) {
          return done(error as Error);
        }
        return done();
      }
      authenticateRequest(request).then(() => done(), done);
    },
  );
});

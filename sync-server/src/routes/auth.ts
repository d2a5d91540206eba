// /api/auth: sign-up, sign-in, the signed-in user, profile, logout (here or everywhere), export and account
// deletion.
import {
  AuthResponse,
  exportFileName,
  LoginBody,
  ProfileBody,
  RegisterBody,
  SERVER_ERRORS,
  UserResponse,
} from '@lectern/shared-schema';
import type { FastifyRequest } from 'fastify';
import { clientNetworkKey } from '../services/client-address';
import { LoginAttempts } from '../services/login-attempts';
import { PasswordHashingBusyError } from '../services/passwords';
import { Readable } from 'node:stream';
import { exportDocument } from '../services/export';
import { RateLimiter } from '../services/rate-limiter';
import { removeUserFiles } from '../services/screenshots';
import { revokeSession, revokeUserSessions } from '../services/sessions';
import { tooManyRequests, unauthorized } from '../services/errors';
import {
  authenticate,
  deleteUser,
  getUser,
  normalizeEmail,
  registerUser,
  updateProfile,
} from '../services/users';
import type { RouteOptions, TypedFastify } from './types';

/** Sign-up and sign-in need no token; rate limits guard them instead. */
export async function publicAuthRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  const { db, config } = ctx;
  const loginAttempts = new LoginAttempts(config);
  const registrationsByNetwork = new RateLimiter(config.registrationsPerIp, config.registrationWindowMs);

  app.post(
    '/auth/register',
    { schema: { body: RegisterBody, response: { 201: AuthResponse } } },
    async (request, reply) => {
      const network = clientNetworkKey(request.ip);
      const now = Date.now();
      const wait = registrationsByNetwork.take(network, now);
      if (wait > 0) throw tooManyRequests(SERVER_ERRORS.tooManyRegistrations, wait);
      const user = await registerUser(db, request.body).catch((error: unknown) => {
        // Turned away for a busy server: no account was made, so the network's count is given back.
        if (error instanceof PasswordHashingBusyError) registrationsByNetwork.release(network, now);
        throw error;
      });
      return reply.code(201).send({ token: app.issueToken(user.id), user });
    },
  );

  app.post(
    '/auth/login',
    { schema: { body: LoginBody, response: { 200: AuthResponse } } },
    async (request) => {
      // Counted as a failure before the hash; given back below if the password is right.
      const attempt = loginAttempts.start(normalizeEmail(request.body.email), request.ip);
      try {
        const user = await authenticate(db, request.body);
        if (!user) throw unauthorized(SERVER_ERRORS.invalidCredentials);
        attempt.succeeded();
        return { token: app.issueToken(user.id), user };
      } catch (error) {
        if (error instanceof PasswordHashingBusyError) attempt.notChecked();
        throw error;
      } finally {
        attempt.finish();
      }
    },
  );
}

export async function authRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  const { db, config } = ctx;

  app.get('/auth/me', { schema: { response: { 200: UserResponse } } }, async (request: FastifyRequest) => ({
    user: getUser(db, request.userId),
  }));

  app.put(
    '/auth/profile',
    { schema: { body: ProfileBody, response: { 200: UserResponse } } },
    async (request) => ({
      user: updateProfile(db, request.userId, request.body.username),
    }),
  );

  app.post('/auth/logout', async (request, reply) => {
    revokeSession(db, request.sessionId);
    return reply.code(204).send();
  });

  // Sign out everywhere: every token of the user stops working, this one included.
  app.post('/auth/logout-all', async (request, reply) => {
    revokeUserSessions(db, request.userId);
    return reply.code(204).send();
  });

  app.get('/auth/export', async (request, reply) => {
    // Streamed: the document is written as it is read, never held whole (services/export.ts).
    const document = Readable.from(exportDocument(db, request.userId), { objectMode: false });
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName(new Date())}"`)
      .header('cache-control', 'no-store')
      .send(document);
  });

  app.delete('/auth/account', async (request, reply) => {
    deleteUser(db, request.userId);
    await removeUserFiles(config, request.userId);
    return reply.code(204).send();
  });
}

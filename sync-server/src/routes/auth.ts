// /api/auth: sign-up, sign-in, the signed-in user, profile, logout (here or everywhere), export and account
// deletion.
import {
  AuthResponse,
  exportFileName,
  LoginBody,
  ProfileBody,
  RegisterBody,
  UserResponse,
} from '@lectern/shared-schema';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { deleteAccount } from '../services/deletions';
import { exportDocument } from '../services/export';
import { revokeSession, revokeUserSessions } from '../services/sessions';
import { signIn, signUp } from '../services/sign-in';
import { getUser, updateProfile } from '../services/users';
import type { RouteOptions, TypedFastify } from './types';

/** Sign-up and sign-in need no token; rate limits guard them instead (services/sign-in.ts). */
export async function publicAuthRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  app.post(
    '/auth/register',
    { schema: { body: RegisterBody, response: { 201: AuthResponse } } },
    async (request, reply) => {
      const user = await signUp(ctx, request.body, request.ip);
      return reply.code(201).send({ token: await app.issueToken(user.id), user });
    },
  );

  app.post(
    '/auth/login',
    { schema: { body: LoginBody, response: { 200: AuthResponse } } },
    async (request) => {
      const user = await signIn(ctx, request.body, request.ip);
      return { token: await app.issueToken(user.id), user };
    },
  );
}

export async function authRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  const { db } = ctx;

  app.get('/auth/me', { schema: { response: { 200: UserResponse } } }, async (request: FastifyRequest) => ({
    user: await getUser(db, request.userId),
  }));

  app.put(
    '/auth/profile',
    { schema: { body: ProfileBody, response: { 200: UserResponse } } },
    async (request) => ({
      user: await updateProfile(db, request.userId, request.body.username),
    }),
  );

  app.post('/auth/logout', async (request, reply) => {
    await revokeSession(db, request.sessionId);
    return reply.code(204).send();
  });

  // Sign out everywhere: every token of the user stops working, this one included.
  app.post('/auth/logout-all', async (request, reply) => {
    await revokeUserSessions(db, request.userId);
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
    await deleteAccount(ctx, request.userId);
    return reply.code(204).send();
  });
}

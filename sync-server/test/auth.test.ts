import { SERVER_ERRORS } from '@lectern/shared-schema';
import { sql } from 'drizzle-orm';
import { openServerDatabase } from '../src/testing/test-database';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/api-client';
import { startWorld, type World } from './support/world';

let world: World;
beforeAll(async () => {
  world = await startWorld({ LOGIN_FAILURES_PER_EMAIL: '3', REGISTRATIONS_PER_IP: '1000' });
});
afterAll(() => world.close());

describe('sign-up and sign-in', () => {
  it('registers, answering a token and the user without any secret', async () => {
    const answer = await world.api.post('/auth/register', {
      email: 'Ada@Example.com',
      password: 'long enough password',
      username: 'ada',
    });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(['token', 'user']);
    expect(answer.body.user).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'ada@example.com',
      username: 'ada',
      avatarUrl: null,
      created_at: expect.any(String),
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/password|hash|scrypt/i);
  });

  it('refuses a second account for the same email (any case) with 409', async () => {
    const answer = await world.api.post('/auth/register', {
      email: 'ADA@example.com',
      password: 'another password',
      username: 'ada two',
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.emailTaken });
  });

  it.each([
    [
      { email: 'not-an-email', password: 'long enough password', username: 'x' },
      'Please enter a valid email address',
    ],
    // shared-schema's EMAIL_PATTERN: the domain needs a dot (the app refuses the same address itself).
    [
      { email: 'ada@localhost', password: 'long enough password', username: 'x' },
      'Please enter a valid email address',
    ],
    [
      { email: 'b@example.com', password: 'short', username: 'x' },
      'Please enter a password of at least 8 characters',
    ],
    [{ email: 'b@example.com', password: 'long enough password' }, 'Please enter a username'],
    [
      { email: 'b@example.com', password: 'long enough password', username: '   ' },
      'Please enter a username',
    ],
  ])('answers 400 with a clear text for invalid sign-up %#', async (body, error) => {
    const answer = await world.api.post('/auth/register', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error });
  });

  it('signs in with the right password and refuses a wrong one with 401', async () => {
    const { email, password } = await signUp(world.api);
    const ok = await world.api.post('/auth/login', { email: email.toUpperCase(), password });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe(email);
    const me = await world.api.as(ok.body.token).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: ok.body.user });

    const wrong = await world.api.post('/auth/login', { email, password: 'wrong password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: SERVER_ERRORS.invalidCredentials });
    const unknown = await world.api.post('/auth/login', { email: 'nobody@example.com', password });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: SERVER_ERRORS.invalidCredentials });
  });

  it('rate-limits failed sign-ins per email with 429 and Retry-After, even for the right password', async () => {
    const { email, password } = await signUp(world.api);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await world.api.post('/auth/login', { email, password: 'wrong password' })).status).toBe(401);
    }
    const limited = await world.api.post('/auth/login', { email, password });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: SERVER_ERRORS.tooManyLogins });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('does not count successful sign-ins against the limit', async () => {
    const { email, password } = await signUp(world.api);
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect((await world.api.post('/auth/login', { email, password })).status).toBe(200);
    }
  });
});

describe('tokens', () => {
  it('answers 401 without a token, with a malformed one, and with one signed by another secret', async () => {
    expect((await world.api.get('/auth/me')).status).toBe(401);
    expect((await world.api.as('not.a.jwt').get('/articles')).status).toBe(401);
    const forged =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4Iiwic2lkIjoieSJ9.c2lnbmF0dXJlLW9mLWFub3RoZXIta2V5';
    const answer = await world.api.as(forged).get('/articles');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.unauthorized });
  });

  it('refuses an unsigned (alg none) token', async () => {
    const { user } = await signUp(world.api);
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: user.id, sid: 'x' })}.`;
    expect((await world.api.as(unsigned).get('/auth/me')).status).toBe(401);
  });

  it('checks every token that differs from one already accepted, long ones too (the verify cache is keyed by the token)', async () => {
    const { client, token } = await signUp(world.api);
    expect((await client.get('/auth/me')).status).toBe(200);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const middle = Math.floor(signature.length / 2);
    const flipped = signature[middle] === 'A' ? 'B' : 'A';
    const badSignature = `${header}.${payload}.${signature.slice(0, middle)}${flipped}${signature.slice(middle + 1)}`;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const otherClaims = `${header}.${encode({ ...claims, sub: 'someone else' })}.${signature}`;
    // Longer than a token the cache keeps (VERIFIED_TOKEN_MAX_LENGTH): checked every time.
    const long = `${header}.${encode({ ...claims, pad: 'x'.repeat(2000) })}.${signature}`;
    for (const forged of [badSignature, otherClaims, long, `${token}x`]) {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const answer = await world.api.as(forged).get('/auth/me');
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ error: SERVER_ERRORS.unauthorized });
      }
    }
    expect((await client.get('/auth/me')).status).toBe(200);
  });

  it('issues tokens that last 30 days', async () => {
    const { token } = await signUp(world.api);
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      iat: number;
      exp: number;
    };
    expect(claims.exp - claims.iat).toBe(30 * 24 * 60 * 60);
  });

  it('revokes the token on logout, and only that token', async () => {
    const { client, email, password } = await signUp(world.api);
    const other = await world.api.post('/auth/login', { email, password });
    const saved = await client.post('/articles', { url: world.site.url('/gardening') });
    expect(saved.status).toBe(201);
    const articlePath = `/articles/${saved.body.article.id as string}`;
    expect((await client.get(articlePath)).status).toBe(200);
    expect((await client.post('/auth/logout')).status).toBe(204);
    expect((await client.get('/auth/me')).status).toBe(401);
    expect((await client.get('/articles')).status).toBe(401);
    // The one route that checks its session in its own query (plugins/auth.ts, sessionCheckedByRoute).
    const article = await client.get(articlePath);
    expect(article.status).toBe(401);
    expect(article.body).toEqual({ error: SERVER_ERRORS.unauthorized });
    expect((await world.api.as(other.body.token).get('/auth/me')).status).toBe(200);
    expect((await world.api.as(other.body.token).get(articlePath)).status).toBe(200);
  });
});

describe('sign out everywhere', () => {
  it('revokes every session of the user with 204, and no one else’s', async () => {
    const { client, email, password } = await signUp(world.api);
    const laptop = await world.api.post('/auth/login', { email, password });
    const phone = await world.api.post('/auth/login', { email, password });
    const bystander = await signUp(world.api);

    const answer = await world.api.as(laptop.body.token).post('/auth/logout-all');
    expect(answer.status).toBe(204);

    for (const token of [client.token, laptop.body.token, phone.body.token]) {
      const me = await world.api.as(token).get('/auth/me');
      expect(me.status).toBe(401);
      expect(me.body).toEqual({ error: SERVER_ERRORS.unauthorized });
    }
    expect((await bystander.client.get('/auth/me')).status).toBe(200);
    // Signing in again works, with a session of its own.
    const again = await world.api.post('/auth/login', { email, password });
    expect((await world.api.as(again.body.token).get('/auth/me')).status).toBe(200);
  });

  it('needs a token', async () => {
    expect((await world.api.post('/auth/logout-all')).status).toBe(401);
  });
});

describe('profile', () => {
  it('updates the username and answers the user', async () => {
    const { client, user } = await signUp(world.api);
    const answer = await client.put('/auth/profile', { username: '  Grace Hopper ' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ user: { ...user, username: 'Grace Hopper' } });
    expect((await client.get('/auth/me')).body.user.username).toBe('Grace Hopper');
  });

  it('requires a username', async () => {
    const { client } = await signUp(world.api);
    const answer = await client.put('/auth/profile', { username: '' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'Please enter a username' });
  });
});

describe('export', () => {
  it('downloads every row of the user as pretty-printed JSON named lectern-export-<date>.json', async () => {
    const { client, user } = await signUp(world.api);
    const article = (await client.post('/articles', { url: world.site.url('/baking'), tags: ['bread'] })).body
      .article;
    const list = (await client.post('/lists', { name: 'Weekend', isPublic: false })).body.list;
    await client.post(`/lists/${list.id}/articles`, { articleId: article.id });
    await client.post('/highlights', {
      articleId: article.id,
      highlightedText: 'sourdough starter',
      positionStart: 10,
      positionEnd: 27,
    });

    const answer = await client.get('/auth/export');
    expect(answer.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="lectern-export-${today}.json"`,
    );
    const text = JSON.stringify(answer.body, null, 2);
    expect(text).not.toMatch(/password_hash|scrypt\$/);
    expect(answer.body.user).toEqual(user);
    expect(answer.body.articles).toHaveLength(1);
    expect(answer.body.articles[0].content).toContain('sourdough');
    expect(answer.body.articles[0].tags).toEqual(['bread']);
    expect(answer.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['bread']);
    expect(answer.body.lists).toEqual([
      expect.objectContaining({ name: 'Weekend', article_ids: [article.id] }),
    ]);
    expect(answer.body.highlights).toEqual([
      expect.objectContaining({ highlighted_text: 'sourdough starter' }),
    ]);
  });
});

describe('account deletion', () => {
  it('erases every row and file of the user, revokes the token, and leaves others untouched', async () => {
    const { client, user, email, password } = await signUp(world.api);
    const bystander = await signUp(world.api);
    await bystander.client.post('/articles', { url: world.site.url('/astronomy') });
    const article = (await client.post('/articles', { url: world.site.url('/gardening'), tags: ['garden'] }))
      .body.article;
    const list = (await client.post('/lists', { name: 'Mine' })).body.list;
    await client.post(`/lists/${list.id}/articles`, { articleId: article.id });
    await client.post('/highlights', {
      articleId: article.id,
      highlightedText: 'compost',
      positionStart: 0,
      positionEnd: 7,
    });
    const uploads = join(world.server.dataDir, 'uploads', user.id);
    mkdirSync(uploads, { recursive: true });
    writeFileSync(join(uploads, 'leftover.png'), 'x');

    expect((await client.delete('/auth/account')).status).toBe(204);

    expect((await client.get('/auth/me')).status).toBe(401);
    expect((await world.api.post('/auth/login', { email, password })).status).toBe(401);
    expect(existsSync(uploads)).toBe(false);
    expect((await world.api.get(`/lists/public/${list.share_id}`)).status).toBe(404);
    const db = await openServerDatabase(world.server.dataDir);
    const count = async (query: ReturnType<typeof sql>) => await db.get<{ n: number }>(query);
    for (const table of [
      'users',
      'articles',
      'tags',
      'reading_lists',
      'highlights',
      'sessions',
      'change_log',
    ]) {
      const column = table === 'users' ? 'id' : 'user_id';
      expect(
        await count(
          sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${user.id}`,
        ),
      ).toEqual({ n: 0 });
    }
    expect(await count(sql`SELECT count(*) AS n FROM article_tags WHERE article_id = ${article.id}`)).toEqual(
      { n: 0 },
    );
    expect(await count(sql`SELECT count(*) AS n FROM list_articles WHERE list_id = ${list.id}`)).toEqual({
      n: 0,
    });
    expect((await bystander.client.get('/articles')).body.articles).toHaveLength(1);
    await db.close();
  });
});

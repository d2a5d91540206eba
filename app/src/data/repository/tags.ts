// The tag calls of spec section 7 (`POST /tags` and `PUT /tags/{id}` take `{name}`).
import {
  FIELD_ERRORS,
  isFilledIn,
  newId,
  normalizeTagName,
  SERVER_ERRORS,
  type CreateTagBody,
  type TagResponse,
  type UpdateTagBody,
} from '@lectern/shared-schema';
import { ApiError } from '../api/http-client';
import { tagKey } from '../db/local-store';
import type { Operation } from '../outbox/operations';
import { notFound } from '../reads/not-found';
import { getTag, listTags, tagArticles } from '../reads/tag-reads';
import { write, type RepositoryContext } from './context';

/**
 * Creates of the tags an offline save names that the device doesn't know yet, queued before the save so
 * the tag sidebar shows them at once.
 */
export async function tagCreatesFor(
  ctx: RepositoryContext,
  names: readonly string[] = [],
): Promise<Operation[]> {
  const ops: Operation[] = [];
  const seen = new Set<string>();
  for (const raw of names) {
    const name = normalizeTagName(raw);
    const key = tagKey(name);
    if (!name || seen.has(key)) continue;
    seen.add(key);
    if (await ctx.db.tags.where('name_key').equals(key).first()) continue;
    ops.push({ kind: 'createTag', body: { id: newId(), name } });
  }
  return ops;
}

/** A tag's name is required text, refused on the device as the server refuses it. */
function requireName(name: string): void {
  if (!isFilledIn(name)) throw new ApiError(400, FIELD_ERRORS.name);
}

export function createTagsApi(ctx: RepositoryContext) {
  const { db } = ctx;

  return {
    list: () => listTags(db),
    articles: (id: string) => tagArticles(db, id),

    /** A name the user has already answers that tag, as the server does. */
    async create({ name, id }: CreateTagBody): Promise<TagResponse> {
      requireName(name);
      const existing = await db.tags.where('name_key').equals(tagKey(name)).first();
      if (existing) return { tag: await getTag(db, existing.id) };
      const tagId = id ?? newId();
      await write(ctx, { kind: 'createTag', body: { id: tagId, name: normalizeTagName(name) } });
      return { tag: await getTag(db, tagId) };
    },

    async update(id: string, { name }: UpdateTagBody): Promise<TagResponse> {
      requireName(name);
      if (!(await db.tags.get(id))) throw notFound(SERVER_ERRORS.tagNotFound);
      const clash = await db.tags.where('name_key').equals(tagKey(name)).first();
      if (clash && clash.id !== id) throw new ApiError(409, SERVER_ERRORS.tagNameTaken);
      await write(ctx, { kind: 'renameTag', id, body: { name } });
      return { tag: await getTag(db, id) };
    },

    async remove(id: string): Promise<void> {
      if (!(await db.tags.get(id))) throw notFound(SERVER_ERRORS.tagNotFound);
      await write(ctx, { kind: 'deleteTag', id });
    },
  };
}

export type TagsApi = ReturnType<typeof createTagsApi>;

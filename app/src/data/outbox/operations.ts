// The writes a device can make offline: each is one REST call of spec section 7, with its payload as the
// spec names it. Creates carry the client's id, so that replaying one never creates a second entity.
import type {
  AddListArticleBody,
  CreateArticleBody,
  CreateHighlightBody,
  CreateListBody,
  ReorderListBody,
  UpdateArticleBody,
  UpdateHighlightBody,
  UpdateListBody,
  UpdateTagBody,
} from '@lectern/shared-schema';

type WithId<T> = T & { id: string };

export type Operation =
  | { kind: 'createArticle'; body: WithId<CreateArticleBody> }
  | { kind: 'createScreenshot'; id: string; tags?: string[] }
  | { kind: 'updateArticle'; id: string; body: UpdateArticleBody }
  | { kind: 'deleteArticle'; id: string }
  | { kind: 'attachTag'; articleId: string; tagId: string }
  | { kind: 'detachTag'; articleId: string; tagId: string }
  | { kind: 'createTag'; body: { id: string; name: string } }
  | { kind: 'renameTag'; id: string; body: UpdateTagBody }
  | { kind: 'deleteTag'; id: string }
  | { kind: 'createList'; body: WithId<CreateListBody> }
  | { kind: 'updateList'; id: string; body: UpdateListBody }
  | { kind: 'deleteList'; id: string }
  | { kind: 'addListArticle'; listId: string; body: AddListArticleBody }
  | { kind: 'removeListArticle'; listId: string; articleId: string }
  | { kind: 'reorderList'; listId: string; body: ReorderListBody }
  | { kind: 'createHighlight'; body: WithId<CreateHighlightBody> }
  | { kind: 'updateHighlight'; id: string; body: UpdateHighlightBody }
  | { kind: 'deleteHighlight'; id: string };

export type OperationKind = Operation['kind'];

export interface RestCall {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** JSON body; a screenshot upload builds its multipart form from the stored image instead. */
  body?: unknown;
}

const enc = encodeURIComponent;

/** The REST call an operation replays, path relative to /api. */
export function restCallOf(op: Operation): RestCall {
  switch (op.kind) {
    case 'createArticle':
      return { method: 'POST', path: '/articles', body: op.body };
    case 'createScreenshot':
      return { method: 'POST', path: '/articles/screenshot' };
    case 'updateArticle':
      return { method: 'PUT', path: `/articles/${enc(op.id)}`, body: op.body };
    case 'deleteArticle':
      return { method: 'DELETE', path: `/articles/${enc(op.id)}` };
    case 'attachTag':
      return { method: 'POST', path: `/articles/${enc(op.articleId)}/tags`, body: { tagId: op.tagId } };
    case 'detachTag':
      return { method: 'DELETE', path: `/articles/${enc(op.articleId)}/tags/${enc(op.tagId)}` };
    case 'createTag':
      return { method: 'POST', path: '/tags', body: op.body };
    case 'renameTag':
      return { method: 'PUT', path: `/tags/${enc(op.id)}`, body: op.body };
    case 'deleteTag':
      return { method: 'DELETE', path: `/tags/${enc(op.id)}` };
    case 'createList':
      return { method: 'POST', path: '/lists', body: op.body };
    case 'updateList':
      return { method: 'PUT', path: `/lists/${enc(op.id)}`, body: op.body };
    case 'deleteList':
      return { method: 'DELETE', path: `/lists/${enc(op.id)}` };
    case 'addListArticle':
      return { method: 'POST', path: `/lists/${enc(op.listId)}/articles`, body: op.body };
    case 'removeListArticle':
      return { method: 'DELETE', path: `/lists/${enc(op.listId)}/articles/${enc(op.articleId)}` };
    case 'reorderList':
      return { method: 'PUT', path: `/lists/${enc(op.listId)}/reorder`, body: op.body };
    case 'createHighlight':
      return { method: 'POST', path: '/highlights', body: op.body };
    case 'updateHighlight':
      return { method: 'PUT', path: `/highlights/${enc(op.id)}`, body: op.body };
    case 'deleteHighlight':
      return { method: 'DELETE', path: `/highlights/${enc(op.id)}` };
  }
}

/** Ids of every entity the operation touches or needs to exist. */
export function entityIdsOf(op: Operation): string[] {
  switch (op.kind) {
    case 'createArticle':
    case 'createTag':
    case 'createList':
      return [op.body.id];
    case 'createHighlight':
      return [op.body.id, op.body.articleId];
    case 'createScreenshot':
    case 'updateArticle':
    case 'deleteArticle':
    case 'renameTag':
    case 'deleteTag':
    case 'updateList':
    case 'deleteList':
    case 'updateHighlight':
    case 'deleteHighlight':
      return [op.id];
    case 'attachTag':
    case 'detachTag':
      return [op.articleId, op.tagId];
    case 'addListArticle':
      return [op.listId, op.body.articleId];
    case 'removeListArticle':
      return [op.listId, op.articleId];
    case 'reorderList':
      return [op.listId];
  }
}

/** The id an operation creates, when it creates one. */
export function createdIdOf(op: Operation): string | undefined {
  switch (op.kind) {
    case 'createArticle':
    case 'createTag':
    case 'createList':
    case 'createHighlight':
      return op.body.id;
    case 'createScreenshot':
      return op.id;
    default:
      return undefined;
  }
}

export function isDelete(op: Operation): boolean {
  return restCallOf(op).method === 'DELETE';
}

/** Saves by URL or screenshot: the calls whose refusal leaves a visible article with Retry and Delete. */
export function isArticleSave(op: Operation): boolean {
  return op.kind === 'createArticle' || op.kind === 'createScreenshot';
}

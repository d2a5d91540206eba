// Names a queued write in the reader's words, for the list of changes the server refused.
import type { Operation } from '../../data';

export function describeChange(op: Operation): string {
  switch (op.kind) {
    case 'createArticle':
      return `Saving ${op.body.url}`;
    case 'createScreenshot':
      return 'Saving a screenshot';
    case 'updateArticle':
      return 'A change to an article';
    case 'deleteArticle':
      return 'Deleting an article';
    case 'attachTag':
    case 'detachTag':
      return "A change to an article's tags";
    case 'createTag':
      return `Creating the tag “${op.body.name}”`;
    case 'renameTag':
      return `Renaming a tag to “${op.body.name}”`;
    case 'deleteTag':
      return 'Deleting a tag';
    case 'createList':
      return `Creating the list “${op.body.name}”`;
    case 'updateList':
    case 'addListArticle':
    case 'removeListArticle':
    case 'reorderList':
      return 'A change to a reading list';
    case 'deleteList':
      return 'Deleting a reading list';
    case 'createHighlight':
      return 'Adding a highlight';
    case 'updateHighlight':
      return 'A change to a highlight';
    case 'deleteHighlight':
      return 'Deleting a highlight';
  }
}

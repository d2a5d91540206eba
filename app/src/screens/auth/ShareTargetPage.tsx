import { useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '@lectern/shared-schema';
import { Button, buttonClassName } from '../../components/Button';
import { CheckIcon } from '../../components/icons';
import { useToast } from '../../components/use-toast';
import { SaveArticleError, type LocalArticle } from '../../data';
import { useLectern } from '../../session/use-lectern';
import { SaveArticleForm } from '../dashboard/SaveArticleForm';
import { ShareTargetCard } from './ShareTargetCard';
import { sharedUrlOf } from './shared-url';

type ShareState =
  | { step: 'confirm'; url: string }
  | { step: 'saving'; url: string }
  | { step: 'saved'; article: LocalArticle }
  | { step: 'failed'; url: string; error: string }
  | { step: 'nothing' };

/**
 * /share: what a phone's share sheet opens. Any web page can open this address too, so the shared link is
 * shown and saved only when the reader says so; the form is the fallback when nothing usable was shared.
 */
export function ShareTargetPage() {
  const [params] = useSearchParams();
  const lectern = useLectern();
  const navigate = useNavigate();
  const { showToast } = useToast();
  const sharedUrl = sharedUrlOf(params);
  const [state, setState] = useState<ShareState>(() =>
    sharedUrl ? { step: 'confirm', url: sharedUrl } : { step: 'nothing' },
  );
  const saving = useRef(false);

  function save(url: string) {
    // A double tap saves once.
    if (saving.current) return;
    saving.current = true;
    setState({ step: 'saving', url });
    lectern.articles
      .create({ url })
      .then(
        ({ article }) => setState({ step: 'saved', article }),
        (error: unknown) => {
          const message = error instanceof SaveArticleError ? error.message : MESSAGES.saveFailed;
          showToast(message, 'error');
          setState({ step: 'failed', url, error: message });
        },
      )
      .finally(() => {
        saving.current = false;
      });
  }

  return (
    <ShareTargetCard>
      {state.step === 'confirm' && (
        <>
          <p className="share-target__lead">Save this link to your library?</p>
          <p className="share-target__shared">
            <span className="share-target__url">{state.url}</span>
          </p>
          <div className="share-target__actions">
            <Button onClick={() => save(state.url)}>Save</Button>
            <Button variant="secondary" onClick={() => navigate('/', { replace: true })}>
              Cancel
            </Button>
          </div>
        </>
      )}
      {state.step === 'saving' && (
        <p className="share-target__status" role="status">
          <span className="loading-screen__spinner" aria-hidden="true" />
          Saving <span className="share-target__url">{state.url}</span>
        </p>
      )}
      {state.step === 'saved' && <Saved article={state.article} />}
      {state.step === 'failed' && (
        <>
          <p className="form-alert form-alert--error" role="alert">
            {state.error}
          </p>
          <SaveArticleForm
            initialUrl={state.url}
            submitLabel="Try Again"
            onSaved={(article) => setState({ step: 'saved', article })}
          />
        </>
      )}
      {state.step === 'nothing' && (
        <>
          <p className="share-target__lead">
            What was shared didn’t include a web link. Paste the article’s address to save it.
          </p>
          <SaveArticleForm onSaved={(article) => setState({ step: 'saved', article })} />
        </>
      )}
    </ShareTargetCard>
  );
}

function Saved({ article }: { article: LocalArticle }) {
  return (
    <>
      <p className="share-target__done">
        <span className="share-target__check" aria-hidden="true">
          <CheckIcon size={18} />
        </span>
        {article.pendingSave
          ? 'Saved on this device. It will be fetched as soon as you are back online.'
          : 'Saved to your library.'}
      </p>
      <p className="share-target__article">{article.title}</p>
      <div className="share-target__actions">
        <Link to={`/article/${article.id}`} className={buttonClassName()}>
          Read Now
        </Link>
        <Link to="/" className={buttonClassName({ variant: 'secondary' })}>
          Go to My Articles
        </Link>
      </div>
    </>
  );
}

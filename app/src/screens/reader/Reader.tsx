import { useCallback, useMemo, useRef, useState } from 'react';
import type { CSSProperties } from 'react';
import { useNavigate } from 'react-router-dom';
import { isScreenshotUrl, MESSAGES, type Highlight } from '@lectern/shared-schema';
import type { LocalArticle } from '../../data';
import { Button } from '../../components/Button';
import { useLectern } from '../../session/use-lectern';
import { useRetryFetch } from '../../hooks/use-retry-fetch';
import { ArticleBody } from './ArticleBody';
import { ArticleHeader } from './ArticleHeader';
import { DeleteHighlightDialog } from './DeleteHighlightDialog';
import { HighlightConfirmPopup } from './HighlightConfirmPopup';
import { HighlightsPanel } from './HighlightsPanel';
import { firstMarkOf } from './highlighting/marks';
import { MarkPopover } from './MarkPopover';
import type { Box } from './popover-position';
import { ReaderToolbar } from './ReaderToolbar';
import { fontSizeOf } from './reading-settings';
import { ReadingSettingsMenu } from './ReadingSettingsMenu';
import { sanitizeArticleHtml } from './sanitize-article';
import { useArchivedImages } from '../../hooks/use-archived-images';
import { useHighlightActions } from './use-highlight-actions';
import { boxOf, useHighlightSelection, type PendingHighlight } from './use-highlight-selection';
import { useMissingBody } from './use-missing-body';
import { useReadingProgress } from './use-reading-progress';
import { useNavbarHeight } from './use-navbar-height';
import { useReadingSettings } from './use-reading-settings';

type OpenPanel =
  | { kind: 'none' }
  | { kind: 'highlights'; anchor: Box }
  | { kind: 'settings'; anchor: Box }
  | { kind: 'mark'; ids: string[]; anchor: Box };

const NONE: OpenPanel = { kind: 'none' };
const FLASH_MS = 1600;

export interface ReaderProps {
  article: LocalArticle;
  highlights: readonly Highlight[];
}

export function Reader({ article, highlights }: ReaderProps) {
  const lectern = useLectern();
  const navigate = useNavigate();
  const { saveHighlight, deleteHighlight } = useHighlightActions(article.id);
  const retryFetch = useRetryFetch();
  const [settings, setSettings] = useReadingSettings();
  const [highlightMode, setHighlightMode] = useState(false);
  const [pending, setPending] = useState<PendingHighlight | null>(null);
  const [saving, setSaving] = useState(false);
  const [panel, setPanel] = useState<OpenPanel>(NONE);
  const [toDelete, setToDelete] = useState<Highlight | null>(null);
  const [notPlaced, setNotPlaced] = useState<ReadonlySet<string>>(new Set());
  const bodyRef = useRef<HTMLDivElement>(null);
  const panelTriggerRef = useRef<HTMLButtonElement>(null);
  const settingsTriggerRef = useRef<HTMLButtonElement>(null);

  const toolbarTop = useNavbarHeight();
  const html = useMemo(
    () => (article.content ? sanitizeArticleHtml(article.content) : ''),
    [article.content],
  );
  const hasBody = html.trim().length > 0;
  const missingBody = useMissingBody(article);
  useArchivedImages(bodyRef, article.id, html);

  const progress = useReadingProgress(bodyRef, article.id, article.reading_progress, (readingProgress) => {
    void lectern.articles.update(article.id, { readingProgress }).catch(() => undefined);
  });

  useHighlightSelection(bodyRef, highlightMode, (next) => {
    setPending((current) =>
      current && current.draft.start === next.draft.start && current.draft.end === next.draft.end
        ? current
        : next,
    );
  });

  const clearSelection = () => document.getSelection()?.removeAllRanges();

  async function confirmPending() {
    if (!pending) return;
    setSaving(true);
    const saved = await saveHighlight(pending.draft);
    setSaving(false);
    if (saved) {
      setPending(null);
      clearSelection();
    }
  }

  const onPlacement = useCallback((ids: string[]) => {
    setNotPlaced((current) =>
      current.size === ids.length && ids.every((id) => current.has(id)) ? current : new Set(ids),
    );
  }, []);

  function toggle(kind: 'highlights' | 'settings', trigger: HTMLElement | null) {
    setPanel((current) =>
      current.kind === kind || !trigger ? NONE : { kind, anchor: boxOf(trigger.getBoundingClientRect()) },
    );
  }

  function goTo(highlight: Highlight) {
    setPanel(NONE);
    const root = bodyRef.current;
    const mark = root && firstMarkOf(root, highlight.id);
    if (!mark) return;
    mark.scrollIntoView({ block: 'center', behavior: 'smooth' });
    mark.classList.add('highlight-mark--flash');
    setTimeout(() => mark.classList.remove('highlight-mark--flash'), FLASH_MS);
  }

  function askDelete(highlight: Highlight) {
    setPanel(NONE);
    setToDelete(highlight);
  }

  const markHighlights =
    panel.kind === 'mark' ? highlights.filter((highlight) => panel.ids.includes(highlight.id)) : [];
  const summary = hasBody ? (article.excerpt ?? article.description) : article.description;

  return (
    <div
      className="reader"
      style={
        {
          '--reader-font-size': fontSizeOf(settings),
          '--reader-toolbar-top': toolbarTop === null ? undefined : `${toolbarTop}px`,
        } as CSSProperties
      }
    >
      <ReaderToolbar
        article={article}
        highlightCount={highlights.length}
        highlightMode={highlightMode}
        panelOpen={panel.kind === 'highlights'}
        settingsOpen={panel.kind === 'settings'}
        panelTriggerRef={panelTriggerRef}
        settingsTriggerRef={settingsTriggerRef}
        progress={progress}
        onBack={() => (window.history.state?.idx > 0 ? navigate(-1) : navigate('/'))}
        onToggleHighlightMode={() => {
          setHighlightMode((on) => !on);
          setPending(null);
        }}
        onTogglePanel={() => toggle('highlights', panelTriggerRef.current)}
        onToggleRead={() => void lectern.articles.update(article.id, { isRead: !article.is_read })}
        onToggleSettings={() => toggle('settings', settingsTriggerRef.current)}
      />
      {highlightMode && (
        <p className="reader-mode-hint" role="status">
          Highlight mode is on: select a passage to highlight it.
        </p>
      )}
      <article className="reader-article" data-highlight-mode={highlightMode || undefined}>
        <ArticleHeader article={article} summary={summary} />
        {hasBody ? (
          <ArticleBody
            bodyRef={bodyRef}
            html={html}
            highlights={highlights}
            onPlacement={onPlacement}
            onMarkActivate={(ids, anchor) => setPanel({ kind: 'mark', ids, anchor })}
          />
        ) : (
          <div className="reader-fallback" ref={bodyRef}>
            {article.pendingSave?.state === 'saving' && (
              <p className="reader-fallback__pending">
                Still saving: the full text appears here once the server has fetched the page.
              </p>
            )}
            {article.pendingSave?.state === 'failed' && article.pendingSave.error && (
              <p className="reader-fallback__pending" role="alert">
                {article.pendingSave.error}
              </p>
            )}
            {article.fetch_state === 'pending' && (
              <p className="reader-fallback__pending">
                Fetching page… the full text appears here once the server has fetched it.
              </p>
            )}
            {article.fetch_state === 'failed' && (
              <div className="reader-fallback__pending reader-fallback__failed" role="alert">
                <p>
                  <strong>Couldn’t fetch the page.</strong> {article.fetch_error}
                </p>
                <Button size="sm" variant="secondary" onClick={() => void retryFetch(article.id)}>
                  Retry
                </Button>
              </div>
            )}
            {missingBody === 'fetching' && (
              <p className="reader-fallback__pending" role="status">
                Downloading the full text to this device…
              </p>
            )}
            {missingBody === 'notHere' && (
              <p className="reader-fallback__pending" role="status">
                The full text of this article isn’t on this device yet. It downloads when you’re back online.
              </p>
            )}
            {!missingBody && <p>{MESSAGES.noContent}</p>}
            {!isScreenshotUrl(article.url) && (
              <a
                href={article.url}
                target="_blank"
                rel="noopener noreferrer"
                className="reader-fallback__link"
              >
                Read on the original site
              </a>
            )}
          </div>
        )}
      </article>

      {pending && (
        <HighlightConfirmPopup
          pending={pending}
          saving={saving}
          onConfirm={() => void confirmPending()}
          onCancel={() => {
            setPending(null);
            clearSelection();
          }}
        />
      )}
      {panel.kind === 'highlights' && (
        <HighlightsPanel
          highlights={highlights}
          notPlaced={notPlaced}
          anchor={panel.anchor}
          triggerRef={panelTriggerRef}
          onGoTo={goTo}
          onDelete={askDelete}
          onClose={() => setPanel(NONE)}
        />
      )}
      {panel.kind === 'settings' && (
        <ReadingSettingsMenu
          settings={settings}
          onChange={setSettings}
          anchor={panel.anchor}
          triggerRef={settingsTriggerRef}
          onClose={() => setPanel(NONE)}
        />
      )}
      {panel.kind === 'mark' && markHighlights.length > 0 && (
        <MarkPopover
          highlights={markHighlights}
          anchor={panel.anchor}
          onDelete={askDelete}
          onClose={() => setPanel(NONE)}
        />
      )}
      <DeleteHighlightDialog
        highlight={toDelete}
        onCancel={() => setToDelete(null)}
        onConfirm={async (highlight) => {
          if (await deleteHighlight(highlight.id)) setToDelete(null);
        }}
      />
    </div>
  );
}

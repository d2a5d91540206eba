import type { RefObject } from 'react';
import { isScreenshotUrl, type Article } from '@lectern/shared-schema';
import { HighlighterIcon } from '../../components/icons';
import { BackIcon, ExternalIcon, QuoteListIcon, ReadIcon, TextSizeIcon, UnreadIcon } from './reader-icons';

export interface ReaderToolbarProps {
  article: Article;
  highlightCount: number;
  highlightMode: boolean;
  panelOpen: boolean;
  settingsOpen: boolean;
  panelTriggerRef: RefObject<HTMLButtonElement | null>;
  settingsTriggerRef: RefObject<HTMLButtonElement | null>;
  /** 0..1, drawn as a thin bar along the toolbar's bottom edge. */
  progress: number;
  onBack: () => void;
  onToggleHighlightMode: () => void;
  onTogglePanel: () => void;
  onToggleRead: () => void;
  onToggleSettings: () => void;
}

/** The header buttons of spec section 2: back, highlight mode, highlights, read/unread, original. */
export function ReaderToolbar(props: ReaderToolbarProps) {
  const { article, highlightCount, highlightMode } = props;
  const original = isScreenshotUrl(article.url) ? article.screenshot_url : article.url;
  return (
    <div className="reader-toolbar">
      <div className="reader-toolbar__inner">
        <button type="button" className="reader-tool" onClick={props.onBack}>
          <BackIcon />
          <span className="reader-tool__label">Back</span>
        </button>
        <span className="reader-toolbar__spacer" />
        <button
          type="button"
          className="reader-tool"
          aria-pressed={highlightMode}
          onClick={props.onToggleHighlightMode}
        >
          <HighlighterIcon />
          <span className="reader-tool__label">Highlight mode</span>
        </button>
        <button
          type="button"
          ref={props.panelTriggerRef}
          className="reader-tool"
          aria-haspopup="dialog"
          aria-expanded={props.panelOpen}
          onClick={props.onTogglePanel}
        >
          <QuoteListIcon />
          <span className="reader-tool__label">Highlights</span>
          <span className="reader-tool__count" data-testid="highlight-count">
            {highlightCount}
          </span>
        </button>
        <button type="button" className="reader-tool" onClick={props.onToggleRead}>
          {article.is_read ? <UnreadIcon /> : <ReadIcon />}
          <span className="reader-tool__label">{article.is_read ? 'Mark as unread' : 'Mark as read'}</span>
        </button>
        <button
          type="button"
          ref={props.settingsTriggerRef}
          className="reader-tool"
          aria-haspopup="dialog"
          aria-expanded={props.settingsOpen}
          onClick={props.onToggleSettings}
        >
          <TextSizeIcon />
          <span className="reader-tool__label">Reading settings</span>
        </button>
        {original && (
          <a className="reader-tool" href={original} target="_blank" rel="noopener noreferrer">
            <ExternalIcon />
            <span className="reader-tool__label">View original</span>
          </a>
        )}
      </div>
      <div className="reader-progress" aria-hidden="true">
        <div className="reader-progress__bar" style={{ transform: `scaleX(${props.progress})` }} />
      </div>
    </div>
  );
}

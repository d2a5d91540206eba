import { useState, type RefObject } from 'react';
import { isScreenshotUrl, type Article } from '@lectern/shared-schema';
import { HighlighterIcon } from '../../components/icons';
import { ScreenshotViewer } from './ScreenshotViewer';
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

/**
 * A tool's name: in full on wide screens; on phones a short word under the icon, with the full name
 * still there for screen readers (the short word is part of it, so speech control finds it too).
 */
function ToolLabel({ label, short = label }: { label: string; short?: string }) {
  return (
    <>
      <span className="reader-tool__label">{label}</span>
      <span className="reader-tool__short" aria-hidden="true">
        {short}
      </span>
    </>
  );
}

/** The header buttons of spec section 2: back, highlight mode, highlights, read/unread, original. */
export function ReaderToolbar(props: ReaderToolbarProps) {
  const { article, highlightCount, highlightMode } = props;
  const screenshot = isScreenshotUrl(article.url) ? article.screenshot_url : null;
  // A screenshot's original sits behind the token: a plain link would answer 401, so it opens in a viewer.
  const [viewing, setViewing] = useState(false);
  return (
    <div className="reader-toolbar">
      <div className="reader-toolbar__inner">
        <button type="button" className="reader-tool" onClick={props.onBack}>
          <BackIcon />
          <ToolLabel label="Back" />
        </button>
        <span className="reader-toolbar__spacer" />
        <button
          type="button"
          className="reader-tool"
          aria-pressed={highlightMode}
          onClick={props.onToggleHighlightMode}
        >
          <HighlighterIcon />
          <ToolLabel label="Highlight mode" short="Highlight" />
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
          <ToolLabel label="Highlights" />
          <span className="reader-tool__count" data-testid="highlight-count">
            {highlightCount}
          </span>
        </button>
        <button type="button" className="reader-tool" onClick={props.onToggleRead}>
          {article.is_read ? <UnreadIcon /> : <ReadIcon />}
          {article.is_read ? (
            <ToolLabel label="Mark as unread" short="Unread" />
          ) : (
            <ToolLabel label="Mark as read" short="Read" />
          )}
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
          <ToolLabel label="Reading settings" short="Settings" />
        </button>
        {screenshot ? (
          <button
            type="button"
            className="reader-tool"
            aria-haspopup="dialog"
            aria-expanded={viewing}
            onClick={() => setViewing(true)}
          >
            <ExternalIcon />
            <ToolLabel label="View original" short="Original" />
          </button>
        ) : (
          !isScreenshotUrl(article.url) && (
            <a className="reader-tool" href={article.url} target="_blank" rel="noopener noreferrer">
              <ExternalIcon />
              <ToolLabel label="View original" short="Original" />
            </a>
          )
        )}
      </div>
      <div className="reader-progress" aria-hidden="true">
        <div className="reader-progress__bar" style={{ transform: `scaleX(${props.progress})` }} />
      </div>
      {screenshot && (
        <ScreenshotViewer
          open={viewing}
          articleId={article.id}
          title={article.title}
          screenshotUrl={screenshot}
          onClose={() => setViewing(false)}
        />
      )}
    </div>
  );
}

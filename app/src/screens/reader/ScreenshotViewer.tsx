import { Modal } from '../../components/Modal';
import { useArticleImage } from '../../hooks/use-article-image';

export interface ScreenshotViewerProps {
  open: boolean;
  articleId: string;
  title: string;
  /** The article's screenshot_url: an /api/ address an <img> or a link can't open without the token. */
  screenshotUrl: string;
  onClose: () => void;
}

/**
 * A screenshot article's original: its image, fetched with the token by the same hook the reader's header
 * and the cards use, shown in a dialog. Fetched only while open.
 */
export function ScreenshotViewer({ open, articleId, title, screenshotUrl, onClose }: ScreenshotViewerProps) {
  const image = useArticleImage(articleId, open ? screenshotUrl : null);
  return (
    <Modal open={open} onClose={onClose} title="Original screenshot" size="lg">
      {image ? (
        <a href={image} target="_blank" rel="noopener noreferrer" className="screenshot-viewer__link">
          <img className="screenshot-viewer__image" src={image} alt={`Screenshot: ${title}`} />
        </a>
      ) : (
        <p className="screenshot-viewer__status" role="status">
          Loading the screenshot…
        </p>
      )}
    </Modal>
  );
}

import type { ReactNode } from 'react';
import {
  CameraIcon,
  ChartIcon,
  DownloadIcon,
  HighlighterIcon,
  LinkIcon,
  ListIcon,
  OfflineIcon,
  SearchIcon,
} from '../../components/icons';

interface ProductFeature {
  title: string;
  text: string;
  icon: ReactNode;
}

/** What Lectern does, in the order a new reader meets it. */
export const PRODUCT_FEATURES: readonly ProductFeature[] = [
  {
    title: 'Save by link or share sheet',
    text: 'Paste a URL, or share straight from your phone once Lectern is installed. We fetch the page and keep the readable text, images and author — not the ads.',
    icon: <LinkIcon />,
  },
  {
    title: 'Save a screenshot',
    text: 'Found something in an app with no link? Save the screenshot and Lectern reads the text out of it, so it is searchable like any article.',
    icon: <CameraIcon />,
  },
  {
    title: 'Read offline, sync later',
    text: 'Your library lives on your device. Read on a plane, save on the subway; every change waits safely and syncs when you are back online.',
    icon: <OfflineIcon />,
  },
  {
    title: 'Highlight what matters',
    text: 'Turn on highlight mode, select a passage and keep it. Every highlight is collected in one place, with the article it came from.',
    icon: <HighlighterIcon />,
  },
  {
    title: 'Tags and reading lists',
    text: 'Tag as you save, filter with one click, and gather articles into reading lists you can share with anyone by a public link.',
    icon: <ListIcon />,
  },
  {
    title: 'Search everything',
    text: 'Find an article by its title, full text or tags, and find any passage you highlighted — instantly, even without a connection.',
    icon: <SearchIcon />,
  },
  {
    title: 'See your reading habits',
    text: 'Your top tags, what you saved over the last six months, this month’s count and your daily reading streak.',
    icon: <ChartIcon />,
  },
  {
    title: 'Yours to take with you',
    text: 'Export your whole library as a JSON file whenever you like, or delete your account and everything in it.',
    icon: <DownloadIcon />,
  },
];

export function FeatureGrid() {
  return (
    <ul className="feature-grid">
      {PRODUCT_FEATURES.map((feature) => (
        <li key={feature.title} className="feature-card">
          <span className="feature-card__icon">{feature.icon}</span>
          <h3 className="feature-card__title">{feature.title}</h3>
          <p className="feature-card__text">{feature.text}</p>
        </li>
      ))}
    </ul>
  );
}

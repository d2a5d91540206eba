import { PRODUCT_NAME } from '@lectern/shared-schema';
import { CheckIcon } from '../../components/icons';
import { Footer } from '../../components/Footer';
import { NavBar } from '../../components/NavBar';
import { AuthCard } from './AuthCard';
import type { AuthCardProps } from './AuthCard';
import { FeatureGrid } from './product-features';

export type LoginPageProps = AuthCardProps;

const PROMISES = [
  'Reads offline, syncs when you’re back',
  'Highlights, tags and shareable lists',
  'Export or delete your data any time',
];

/** /login: the marketing hero beside the sign-in card, then the features showcase. */
export function LoginPage(props: LoginPageProps) {
  return (
    <div className="app-frame">
      <title>{`Sign in · ${PRODUCT_NAME}`}</title>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar variant="static" />
      <main id="main" className="page-main" tabIndex={-1}>
        <section className="login-hero" aria-labelledby="login-hero-title">
          <div className="container login-hero__inner">
            <div className="login-hero__copy">
              <p className="eyebrow">Read-it-later · Free while in beta</p>
              <h1 id="login-hero-title" className="login-hero__title">
                Save it now. Read it properly later.
              </h1>
              <p className="login-hero__lead">
                {PRODUCT_NAME} keeps the articles you find — from a link, your phone’s share sheet or a
                screenshot — in a calm, clutter-free library that stays with you offline.
              </p>
              <ul className="login-hero__promises">
                {PROMISES.map((promise) => (
                  <li key={promise}>
                    <CheckIcon size={18} />
                    {promise}
                  </li>
                ))}
              </ul>
            </div>
            <div className="login-hero__card">
              <AuthCard {...props} />
            </div>
          </div>
        </section>

        <section className="showcase" aria-labelledby="showcase-title">
          <div className="container">
            <div className="showcase__header">
              <p className="eyebrow">What you get</p>
              <h2 id="showcase-title" className="showcase__title">
                Everything a reader needs, nothing that distracts
              </h2>
              <p className="showcase__lead">
                From the moment you save to the passage you want to remember, {PRODUCT_NAME} is built around
                reading — not around keeping you scrolling.
              </p>
            </div>
            <FeatureGrid />
          </div>
        </section>
      </main>
      <Footer />
    </div>
  );
}

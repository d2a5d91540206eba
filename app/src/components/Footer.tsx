import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '@lectern/shared-schema';
import { LogoMark } from './LogoMark';

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner container">
        <div className="site-footer__brand">
          <Link to="/" className="site-footer__logo">
            <LogoMark />
            {PRODUCT_NAME}
          </Link>
          <p>
            Save what you want to read, read it anywhere — even offline — and keep the passages worth
            remembering. Free while in beta.
          </p>
        </div>
        <nav aria-label="Product">
          <h2 className="site-footer__title">Product</h2>
          <ul className="site-footer__links">
            <li>
              <Link to="/about">About</Link>
            </li>
            <li>
              <Link to="/blog">Blog</Link>
            </li>
            <li>
              <Link to="/help#newsletter">Product updates</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Support">
          <h2 className="site-footer__title">Support</h2>
          <ul className="site-footer__links">
            <li>
              <Link to="/help">Help</Link>
            </li>
            <li>
              <Link to="/faq">FAQ</Link>
            </li>
            <li>
              <Link to="/contact">Contact</Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container">
        <p className="site-footer__legal">
          © {new Date().getFullYear()} {PRODUCT_NAME}. Your library belongs to you: export it or delete it any
          time.
        </p>
      </div>
    </footer>
  );
}

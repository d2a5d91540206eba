import { Link } from 'react-router-dom';
import { Accordion } from '../../components/Accordion';
import { buttonClassName } from '../../components/Button';
import { FAQ_ENTRIES } from './faq-entries';
import { StaticPage } from './StaticPage';

export function FaqPage() {
  return (
    <StaticPage
      eyebrow="FAQ"
      title="Frequently asked questions"
      lead="Short answers about saving, reading offline, highlights, sharing and your data. Select a question to open it."
      width="prose"
    >
      <Accordion items={FAQ_ENTRIES} headingLevel={2} />
      <section className="callout" aria-labelledby="faq-more">
        <div>
          <h2 id="faq-more" className="callout__title">
            Still wondering about something?
          </h2>
          <p>The Help center walks through every feature step by step, or ask us directly.</p>
        </div>
        <div className="callout__actions">
          <Link to="/help" className={buttonClassName({ variant: 'secondary' })}>
            Open Help
          </Link>
          <Link to="/contact" className={buttonClassName()}>
            Contact us
          </Link>
        </div>
      </section>
    </StaticPage>
  );
}

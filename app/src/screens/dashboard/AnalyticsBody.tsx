// Loaded only when the reader opens analytics (AnalyticsSection): Chart.js stays out of the dashboard's first
// download.
import { BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import type { ReadingAnalytics } from '@lectern/shared-schema';
import { countOf } from './article-format';

Chart.register(BarElement, CategoryScale, LinearScale, Tooltip);

const ACCENT = '#1f6f6b';
const INK_MUTED = '#57534c';
const GRID = '#e5e1da';

const monthName = new Intl.DateTimeFormat(undefined, { month: 'short', year: '2-digit' });

/** 'YYYY-MM' as 'Mar 26'. */
function monthLabel(month: string): string {
  const [year, index] = month.split('-').map(Number);
  return monthName.format(new Date(year ?? 1970, (index ?? 1) - 1, 1));
}

/** The figures, the months' chart and the top tags. */
export function AnalyticsBody({ analytics }: { analytics: ReadingAnalytics }) {
  const labels = analytics.monthlySaved.map(({ month }) => monthLabel(month));
  const counts = analytics.monthlySaved.map(({ count }) => count);
  const topCount = analytics.topTags[0]?.article_count ?? 0;
  return (
    <div className="analytics__grid">
      <dl className="analytics__figures">
        <div className="analytics__figure">
          <dt>This month</dt>
          <dd>{countOf(analytics.thisMonth, 'article')} saved</dd>
        </div>
        <div className="analytics__figure">
          <dt>Reading streak</dt>
          <dd>{countOf(analytics.streak, 'day')}</dd>
        </div>
      </dl>
      <figure className="analytics__chart">
        <figcaption>Articles saved, last 6 months</figcaption>
        <div className="analytics__canvas">
          <Bar
            role="img"
            aria-label={`Articles saved per month: ${labels.map((label, i) => `${label} ${counts[i]}`).join(', ')}`}
            data={{
              labels,
              datasets: [
                {
                  label: 'Articles saved',
                  data: counts,
                  backgroundColor: ACCENT,
                  borderRadius: 6,
                  maxBarThickness: 36,
                },
              ],
            }}
            options={{
              responsive: true,
              maintainAspectRatio: false,
              animation: false,
              plugins: { legend: { display: false } },
              scales: {
                x: { grid: { display: false }, ticks: { color: INK_MUTED } },
                y: { beginAtZero: true, ticks: { precision: 0, color: INK_MUTED }, grid: { color: GRID } },
              },
            }}
          />
        </div>
      </figure>
      <div className="analytics__tags">
        <h3>Top tags</h3>
        {analytics.topTags.length === 0 ? (
          <p className="analytics__note">
            Tag articles when you save them to see your favourite topics here.
          </p>
        ) : (
          <ol className="top-tags">
            {analytics.topTags.map((tag) => (
              <li key={tag.name} className="top-tags__item">
                <span className="top-tags__name">{tag.name}</span>
                <span className="top-tags__bar" aria-hidden="true">
                  <span style={{ width: `${(tag.article_count / Math.max(1, topCount)) * 100}%` }} />
                </span>
                <span className="top-tags__count">{countOf(tag.article_count, 'article')}</span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}

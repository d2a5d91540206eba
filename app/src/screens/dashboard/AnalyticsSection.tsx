import { Skeleton } from '../../components/Skeleton';
import { useReadingAnalytics } from '../../hooks/use-library';
import { useLoadedModule } from '../../hooks/use-loaded-module';

const loadAnalyticsBody = () => import('./AnalyticsBody');

/**
 * The reading analytics, opened from the dashboard's header: the device's figures are read while the chart's
 * chunk (Chart.js) loads, and both are shown as soon as both are in.
 */
export function AnalyticsSection({ id }: { id: string }) {
  const analytics = useReadingAnalytics();
  const body = useLoadedModule(loadAnalyticsBody);
  const waiting = analytics === undefined || (analytics !== null && body === undefined);
  return (
    <section id={id} className="card analytics" aria-labelledby="analytics-title" aria-busy={waiting}>
      <h2 id="analytics-title" className="analytics__title">
        Reading analytics
      </h2>
      {waiting && <AnalyticsSkeleton />}
      {analytics === null && <p className="analytics__note">Analytics aren't available right now.</p>}
      {analytics && body && <body.AnalyticsBody analytics={analytics} />}
    </section>
  );
}

function AnalyticsSkeleton() {
  return (
    <div className="analytics__grid" aria-hidden="true">
      <Skeleton shape="block" height="6rem" />
      <Skeleton shape="block" height="12rem" />
      <Skeleton shape="block" height="10rem" />
    </div>
  );
}

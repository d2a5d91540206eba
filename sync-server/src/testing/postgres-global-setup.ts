// The `sync-server-postgres` project's global setup: one throwaway cluster for the whole run, its template
// migrated once, named to every test process by RUN_CLUSTER_ENV; stopped and deleted when the run ends.
import { RUN_CLUSTER_ENV, startMigratedCluster } from './postgres-cluster';

export default async function setup(): Promise<() => Promise<void>> {
  const cluster = await startMigratedCluster();
  // Test processes start after this and inherit the variable.
  process.env[RUN_CLUSTER_ENV] = cluster.url;
  return async () => {
    delete process.env[RUN_CLUSTER_ENV];
    await cluster.close();
  };
}

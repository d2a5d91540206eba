import { HealthResponse } from '@lectern/shared-schema';
import type { TypedFastify } from './types';

export async function healthRoutes(app: TypedFastify) {
  app.get('/health', { schema: { response: { 200: HealthResponse } } }, async () => ({
    status: 'ok' as const,
  }));
}

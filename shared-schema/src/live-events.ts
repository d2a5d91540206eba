// Live updates between devices: `GET /api/sync/events`, a Server-Sent Events stream that tells a signed-in
// device its change feed moved, so it pulls at once. EventSource can't send an Authorization header, so a
// browser first trades its token for a short-lived ticket (`POST /api/sync/events/ticket`) and names it in
// the stream's address.
import { Type, type Static } from 'typebox';

/** How long a ticket opens streams for; a stream opened in time stays open past it. */
export const SYNC_EVENTS_TICKET_SECONDS = 60;

export const SyncEventsTicketResponse = Type.Object({
  ticket: Type.String(),
  expiresInSeconds: Type.Integer({ minimum: 1 }),
});
export type SyncEventsTicketResponse = Static<typeof SyncEventsTicketResponse>;

export const SyncEventsQuery = Type.Object({
  ticket: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type SyncEventsQuery = Static<typeof SyncEventsQuery>;

/**
 * The stream's events. `ready` once it is open; `changed` each time the feed moved (a nudge: the device
 * pulls the feed from its own cursor); `closed` just before the server ends it, with why. Heartbeats are
 * comment lines, which EventSource never shows.
 */
export const SYNC_EVENTS = { ready: 'ready', changed: 'changed', closed: 'closed' } as const;

/**
 * Why a stream was closed: `replaced`, the user opened more streams than a node keeps for one user and
 * this was the oldest; `signed-out`, its session was revoked or the account deleted; `shutdown`, the
 * server is stopping.
 */
export type SyncEventsClosedReason = 'replaced' | 'signed-out' | 'shutdown';

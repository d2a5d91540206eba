// Tickets for the event stream. EventSource can't send an Authorization header, so a signed-in device
// trades its token for a ticket and puts it in the stream's address. A ticket is a JWT for this one use:
// signed with a key derived from JWT_SECRET (so it is no bearer token anywhere else, and no bearer token
// is a ticket), with its own audience, expiring in a minute, and naming the session it came from, so a
// revoked session's tickets stop working with it. Any node sharing JWT_SECRET checks it, with nothing
// shared in memory.
import { createHmac } from 'node:crypto';

export const SYNC_EVENTS_TICKET_AUDIENCE = 'lectern:sync-events';

/** The ticket key: the JWT secret taken through HMAC with this use's name. */
export function syncEventsTicketKey(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('lectern sync-events ticket').digest('base64url');
}

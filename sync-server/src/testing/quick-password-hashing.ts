// Set up before every test file that may start a server in its own process (vitest.config.ts setupFiles):
// passwords are hashed at a small scrypt cost there. Test servers sign up and sign in thousands of accounts
// over a run, and at the production cost (SCRYPT_PARAMS, half a second of a core each) that was a large
// share of the suite's time. The files about hashing itself set SCRYPT_PARAMS back for their own process:
// the cost written into stored hashes, the bounded hash queue, and the sign-in limits under a burst.
import { setPasswordHashCost } from '../services/passwords';

/** A thousandth of the production cost's work: still scrypt, with its format and its checks. */
export const QUICK_PASSWORD_HASH_COST = { N: 2 ** 10, r: 8, p: 1 } as const;

setPasswordHashCost(QUICK_PASSWORD_HASH_COST);

-- Queued jobs by user and kind, oldest due first (jobs/job-queue.ts): the SQLite queue's claim finds each
-- user's and kind's oldest due job by seeks instead of sorting every due job (an import queues ten thousand
-- page fetches of one reader). The same index on both engines: the schemas are kept in step.
CREATE INDEX "jobs_queued_idx" ON "jobs" USING btree ("status","user_id","kind","run_after");

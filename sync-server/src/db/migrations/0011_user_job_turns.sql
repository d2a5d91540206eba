-- A user's jobs waiting or running, counted (a few at most) when a job is queued on PostgreSQL, so each
-- user's next job takes its turn before another user's tenth (jobs/pg-boss-runner.ts, issue 15). The same
-- index on both engines: the schemas are kept in step.
CREATE INDEX `jobs_user_kind_status_idx` ON `jobs` (`user_id`,`kind`,`status`);
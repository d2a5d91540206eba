-- Search within its latency target at 50,000 articles (issues 15/16: p95 <= 15 ms; 16.7 ms measured), by
-- reading fewer rows to find a search's newest 500 matches (bench/postgres-search-bench.ts).
--
-- lectern_newest_matches (0003) looked among the last 1,000 seq, then 4,000 or 16,000, then all: `omeomepel`
-- of the bench, in 121 of the newest 1,000 articles, then read 16,000 seq of the GIN index (a range of
-- btree_gin's seq entries costs about 0.15 µs a seq) and 1,956 matching rows (about 1 µs each) to keep 500,
-- 7.7 of the search's 12 ms. lectern_search_newest sizes the window after the first from the first's rate
-- of matches, with a quarter to spare: 5,166 seq and 650 rows for that word (2.8 ms). When the window it would
-- need costs more than reading every match of the reader (a rare word, by the same per-seq and per-row
-- costs), it reads them all, as before. Same answer: the newest `wanted` matches, newest first, whatever
-- window holds them (a window is a seq range; a search over all answers any other case).
--
-- lectern_newest_matches stays, unused, for a node of the version before this one still running beside it.
CREATE FUNCTION lectern_search_newest(owner text, match tsquery, newest bigint, first_span integer, wanted integer)
  RETURNS TABLE (seq bigint, created_at text)
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  ROWS 500
  SET enable_indexscan = off
  SET plan_cache_mode = force_generic_plan
  AS $$
DECLARE
  span bigint := first_span;
  found integer;
  rate float8;
  seqs bigint[];
  dates text[];
BEGIN
  IF newest IS NULL THEN RETURN; END IF;
  -- A window as wide as the seq of every article reads no less than the search over all.
  WHILE span < newest LOOP
    SELECT array_agg(m.seq ORDER BY m.seq DESC), array_agg(m.created_at ORDER BY m.seq DESC) INTO seqs, dates
      FROM (SELECT a.seq, a.created_at FROM articles a
        WHERE a.user_id = owner AND a.seq > newest - span AND a.search_vector @@ match
        ORDER BY a.seq DESC LIMIT wanted) m;
    found := coalesce(cardinality(seqs), 0);
    IF found >= wanted THEN
      RETURN QUERY SELECT * FROM unnest(seqs, dates);
      RETURN;
    END IF;
    EXIT WHEN found = 0;
    -- Matches a seq in this window; the next window holds `wanted` at this rate with a quarter to spare.
    rate := found::float8 / span;
    span := ceil(wanted * 1.25 / rate);
    -- Its index range (0.15 a seq) and its rows (1 each) against every match's row, about newest * rate.
    EXIT WHEN span * (0.15 + rate) >= newest * rate;
  END LOOP;
  RETURN QUERY SELECT a.seq, a.created_at FROM articles a
    WHERE a.user_id = owner AND a.search_vector @@ match
    ORDER BY a.seq DESC LIMIT wanted;
END $$;

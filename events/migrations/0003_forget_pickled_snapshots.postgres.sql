-- Table snapshots were pickles, tagged with the rules version ('table-state/paiju-rules/...'):
-- reading one back ran whatever its bytes named. They are JSON now, and the loader never reads
-- bytes, but a pickle left in a row is still a loaded gun: remove them. Snapshots are an
-- optimisation only, so nothing is lost; the next ones are written as JSON.
DELETE FROM snapshots WHERE schema_tag LIKE 'table-state/paiju-rules/%';

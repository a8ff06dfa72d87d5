-- JSON text read as jsonb, or null when it is not JSON: PostgreSQL 15 has no test for valid JSON (16's IS JSON), and a
-- cast of damaged text fails the whole query. The device list's tag filter reads the tag maps through it, so a map
-- damaged by hand matches nothing, as on SQLite (json_valid), instead of failing the list.
CREATE OR REPLACE FUNCTION "sentra_jsonb"(t text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN t::jsonb;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;

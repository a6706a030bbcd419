-- Platform API keys (services/api/keys.py): only a keyed hash (HMAC-SHA256 with the server's
-- pepper) of each secret is kept, so a copy of the database lets no one call the API.
CREATE TABLE api_keys (
    key_id      text        PRIMARY KEY,
    secret_hash text        NOT NULL,
    scopes      text        NOT NULL,
    label       text        NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);

-- Platform API keys (services/api/keys.py): only a keyed hash of each secret is kept.
CREATE TABLE api_keys (
    key_id      TEXT    PRIMARY KEY,
    secret_hash TEXT    NOT NULL,
    scopes      TEXT    NOT NULL,
    label       TEXT    NOT NULL DEFAULT '',
    created_at  TEXT    NOT NULL DEFAULT CURRENT_TIMESTAMP,
    revoked_at  TEXT
);

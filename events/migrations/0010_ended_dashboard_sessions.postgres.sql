-- Dashboard sessions signed out before they expired (services/api/dashboard_session.py): a
-- session is a signed cookie, so signing out records its id here, and every API process
-- sharing the store refuses it; a row is dropped once its session would have expired anyway.
CREATE TABLE ended_dashboard_sessions (
    session_id text   PRIMARY KEY,
    expires_at bigint NOT NULL
);

-- +goose Up
-- Accounts signed in through an identity provider (OpenID Connect) or a trusted login proxy:
-- one row per outside identity, keyed the way the provider names it (issuer and subject; the
-- proxy's header value under the issuer "proxy").
CREATE TABLE user_identities (
    issuer     TEXT    NOT NULL,
    subject    TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (issuer, subject)
) STRICT;
CREATE INDEX user_identities_user ON user_identities (user_id);

-- An account's email, set by an admin or taken from a provider that verified it; a verified
-- email from the provider links a first sign-in to the account holding it.
CREATE TABLE user_emails (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    email   TEXT    NOT NULL UNIQUE COLLATE NOCASE
) STRICT;

-- Members who chose to show their recall and mock results to the rest of the team. Absent
-- means private (admins still see everyone).
CREATE TABLE team_share (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    since   INTEGER NOT NULL
) STRICT;

-- Accounts whose time zone was chosen (by the browser at the first sign-in, or on /settings).
CREATE TABLE timezone_chosen (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE
) STRICT;
INSERT INTO timezone_chosen (user_id) SELECT id FROM users WHERE timezone <> 'UTC';

-- An admin can withdraw an invite before it is used.
ALTER TABLE invites ADD COLUMN revoked_at INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE invites DROP COLUMN revoked_at;
DROP TABLE timezone_chosen;
DROP TABLE team_share;
DROP TABLE user_emails;
DROP TABLE user_identities;

package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Revision actions.
const (
	ActionSave    = "save"    // written in the editor or through the API
	ActionImport  = "import"  // saved from the import page
	ActionRestore = "restore" // an earlier revision's text saved again
	ActionRevert  = "revert"  // the override removed: the card file's text is back
	ActionDelete  = "delete"  // a card that only lived here removed
)

// DeckCard is a card stored in the app, laid over the card files at Path.
type DeckCard struct {
	ID        string
	Path      string
	Markdown  string
	UpdatedAt time.Time
}

// Revision is one change to a card.
type Revision struct {
	ID        int64
	CardID    string
	Path      string
	Markdown  string // after the change; "" for revert and delete
	Action    string
	By        string // user name; "" when the account is gone
	CreatedAt time.Time
}

// DeckCards returns every stored card, by path.
func (db *DB) DeckCards(ctx context.Context) ([]DeckCard, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT card_id, path, markdown, updated_at FROM deck_cards ORDER BY path")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []DeckCard
	for rows.Next() {
		var c DeckCard
		var at int64
		if err := rows.Scan(&c.ID, &c.Path, &c.Markdown, &at); err != nil {
			return nil, err
		}
		c.UpdatedAt = fromMS(at)
		out = append(out, c)
	}
	return out, rows.Err()
}

// SaveDeckCard stores a card's text and records the revision in one transaction. The path
// of a stored card never changes (ids are stable; the caller refuses renames).
func (db *DB) SaveDeckCard(ctx context.Context, c DeckCard, action string, userID int64, now time.Time) (revID int64, err error) {
	err = db.tx(ctx, func(tx *sql.Tx) error {
		revID, err = saveDeckCard(ctx, tx, c, action, userID, now)
		return err
	})
	return revID, err
}

// Removal drops one stored card (Action: ActionRevert or ActionDelete).
type Removal struct {
	ID, Action string
}

// ApplyDeckChanges saves and removes several cards in one transaction, so a set of cards that
// only load together (they link to each other) is stored whole or not at all.
func (db *DB) ApplyDeckChanges(ctx context.Context, saves []DeckCard, removals []Removal, action string, userID int64, now time.Time) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		for _, c := range saves {
			if _, err := saveDeckCard(ctx, tx, c, action, userID, now); err != nil {
				return err
			}
		}
		for _, r := range removals {
			if err := removeDeckCard(ctx, tx, r.ID, r.Action, userID, now); err != nil {
				return err
			}
		}
		return nil
	})
}

func saveDeckCard(ctx context.Context, tx *sql.Tx, c DeckCard, action string, userID int64, now time.Time) (revID int64, err error) {
	if _, err := tx.ExecContext(ctx, `INSERT INTO deck_cards (card_id, path, markdown, updated_at, updated_by)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (card_id) DO UPDATE SET markdown = excluded.markdown, updated_at = excluded.updated_at,
			updated_by = excluded.updated_by`,
		c.ID, c.Path, c.Markdown, ms(now), nullID(userID)); err != nil {
		return 0, err
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO card_revisions (card_id, path, markdown, action, user_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, c.ID, c.Path, c.Markdown, action, nullID(userID), ms(now)).Scan(&revID)
	return revID, err
}

// RemoveDeckCard deletes a stored card (ErrNotFound if there is none) and records action
// (ActionRevert or ActionDelete).
func (db *DB) RemoveDeckCard(ctx context.Context, id, action string, userID int64, now time.Time) error {
	return db.tx(ctx, func(tx *sql.Tx) error { return removeDeckCard(ctx, tx, id, action, userID, now) })
}

func removeDeckCard(ctx context.Context, tx *sql.Tx, id, action string, userID int64, now time.Time) error {
	var path string
	err := tx.QueryRowContext(ctx, "DELETE FROM deck_cards WHERE card_id = ? RETURNING path", id).Scan(&path)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO card_revisions (card_id, path, markdown, action, user_id, created_at)
		VALUES (?, ?, '', ?, ?, ?)`, id, path, action, nullID(userID), ms(now))
	return err
}

// Revisions returns a card's revisions, newest first.
func (db *DB) Revisions(ctx context.Context, cardID string) ([]Revision, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT r.id, r.card_id, r.path, r.markdown, r.action, coalesce(u.username, ''), r.created_at
		FROM card_revisions r LEFT JOIN users u ON u.id = r.user_id WHERE r.card_id = ? ORDER BY r.id DESC`, cardID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Revision
	for rows.Next() {
		var r Revision
		var at int64
		if err := rows.Scan(&r.ID, &r.CardID, &r.Path, &r.Markdown, &r.Action, &r.By, &at); err != nil {
			return nil, err
		}
		r.CreatedAt = fromMS(at)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Setting names.
const (
	SettingMembersEdit = "members_edit_cards" // "1": members may write and edit cards
	SettingExternalURL = "external_url"       // the address visitors use, when --base-url is not set
)

// Setting returns an instance setting's value ("" when unset).
func (db *DB) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := db.queryRow(ctx, "SELECT value FROM instance_settings WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		v, err = "", nil
	}
	return v, err
}

// SetSetting stores an instance setting.
func (db *DB) SetSetting(ctx context.Context, key, value string) error {
	return db.exec(ctx, `INSERT INTO instance_settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
}

// nullID stores 0 (no user, e.g. the command line) as NULL.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

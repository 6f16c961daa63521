package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Themes a user may pick. ThemeSystem follows the device (prefers-color-scheme) and is stored
// as the absence of a row.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// ValidTheme reports whether t is one of the themes above.
func ValidTheme(t string) bool { return t == ThemeSystem || t == ThemeLight || t == ThemeDark }

// Theme returns the user's theme, ThemeSystem when they never chose one.
func (db *DB) Theme(ctx context.Context, userID int64) (string, error) {
	var t string
	err := db.queryRow(ctx, "SELECT theme FROM user_theme WHERE user_id = ?", userID).Scan(&t)
	if errors.Is(err, sql.ErrNoRows) {
		return ThemeSystem, nil
	}
	return t, err
}

// SetTheme saves the user's theme; ThemeSystem removes the choice. Session look-ups carry the
// theme, so it clears them.
func (db *DB) SetTheme(ctx context.Context, userID int64, theme string) error {
	if !ValidTheme(theme) {
		return fmt.Errorf("theme %q: want system, light or dark", theme)
	}
	if theme == ThemeSystem {
		_, err := db.w.ExecContext(ctx, "DELETE FROM user_theme WHERE user_id = ?", userID)
		return err
	}
	_, err := db.w.ExecContext(ctx, `INSERT INTO user_theme (user_id, theme) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET theme = excluded.theme`, userID, theme)
	return err
}

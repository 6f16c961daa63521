// Package migrations holds the numbered SQL migrations, applied at start by goose.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS

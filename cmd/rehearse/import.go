package main

import (
	"context"
	"errors"
)

// cmdImport is owned by the import work stream; this placeholder is replaced there.
func cmdImport(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	return errors.New("import: not built yet")
}

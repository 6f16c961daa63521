package main

import (
	"context"
	"errors"
)

// cmdCheck is owned by the check work stream; this placeholder is replaced there.
func cmdCheck(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	return errors.New("check: not built yet")
}

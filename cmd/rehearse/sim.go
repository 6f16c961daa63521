package main

import (
	"context"
	"errors"
)

// cmdSim is owned by the sim work stream; this placeholder is replaced there.
func cmdSim(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	return errors.New("sim: not built yet")
}

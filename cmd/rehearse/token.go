package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
)

// cmdToken is `rehearse token create USER [--name NAME]`: a personal API token for scripts and
// first-time CI setup, printed once (only its hash is stored).
func cmdToken(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	if len(args) == 0 || args[0] != "create" {
		fmt.Fprintln(io.err, "usage: rehearse token create [--name NAME] [--data DIR] USER")
		return exitError{2}
	}
	fl, finish := configFlags("token create", getenv, io.err, "data")
	name := fl.String("name", "cli", "what the token is for, shown on /account")
	pos, err := parseInterspersed(fl, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return exitError{2}
	}
	cfg, err := finish()
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintln(io.err, "usage: rehearse token create [--name NAME] [--data DIR] USER")
		return exitError{2}
	}
	if n := strings.TrimSpace(*name); n == "" || len(n) > 64 {
		return errors.New("token create: --name must be 1 to 64 characters")
	}
	db, err := store.Open(ctx, cfg.dbPath(), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	u, err := db.UserByName(ctx, pos[0])
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("token create: no user %q (create one with `rehearse user add`)", pos[0])
	}
	if err != nil {
		return err
	}
	tok, digest := auth.NewToken()
	if _, err := db.CreateToken(ctx, u.ID, strings.TrimSpace(*name), digest, time.Now()); err != nil {
		return err
	}
	fmt.Fprintln(io.out, tok)
	fmt.Fprintf(io.err, "token %q for %s (%s): shown once; revoke it on /account\n", strings.TrimSpace(*name), u.Username, u.Role)
	return nil
}

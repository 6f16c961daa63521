package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/server"
	"github.com/rehearse/rehearse/internal/store"
)

func osDirFS(dir string) fs.FS { return os.DirFS(dir) }

// cmdUser manages accounts from the shell: `rehearse user add [--admin] NAME` reads the
// password from stdin (first line), so it never appears in the process list or shell history.
func cmdUser(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	if len(args) == 0 || args[0] != "add" {
		fmt.Fprintln(io.err, "usage: rehearse user add [--admin] [--data DIR] NAME   (password on stdin)")
		return exitError{2}
	}
	cfg, fl, err := parseConfig("user add", args[1:], getenv, io.err, "data")
	admin := false
	_ = fl
	if err != nil {
		return err
	}
	rest := fl.Args()
	var name string
	for _, a := range rest {
		switch {
		case a == "--admin" || a == "-admin":
			admin = true
		case name == "":
			name = a
		default:
			return fmt.Errorf("user add: unexpected argument %q", a)
		}
	}
	if msg := server.ValidateUsername(name); msg != "" {
		return fmt.Errorf("user add: %s", msg)
	}
	line, err := bufio.NewReader(io.in).ReadString('\n')
	if err != nil && line == "" {
		return errors.New("user add: give the password on standard input")
	}
	password := strings.TrimRight(line, "\r\n")
	if err := auth.ValidatePassword(password); err != nil {
		return fmt.Errorf("user add: the password %v", err)
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, cfg.dbPath(), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	role := store.RoleMember
	if admin {
		role = store.RoleAdmin
	}
	if _, err := db.CreateUser(ctx, name, hash, role, time.Now()); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("user add: %q already exists", name)
		}
		return err
	}
	fmt.Fprintf(io.out, "created %s %q\n", role, name)
	return nil
}

func cmdMigrate(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	cfg, _, err := parseConfig("migrate", args, getenv, io.err, "data", "log-level", "log-format")
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	db, err := store.Open(ctx, cfg.dbPath(), cfg.logger(io.err))
	if err != nil {
		return err
	}
	fmt.Fprintln(io.out, "database is up to date:", cfg.dbPath())
	return db.Close()
}

// cmdBackup copies the live database with VACUUM INTO: consistent even while the server writes.
func cmdBackup(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	cfg, fl, err := parseConfig("backup", args, getenv, io.err, "data")
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fl.NArg() != 1 {
		fmt.Fprintln(io.err, "usage: rehearse backup [--data DIR] FILE")
		return exitError{2}
	}
	if _, err := os.Stat(cfg.dbPath()); err != nil {
		return fmt.Errorf("backup: no database at %s", cfg.dbPath())
	}
	db, err := store.Open(ctx, cfg.dbPath(), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	if err := db.Backup(ctx, fl.Arg(0)); err != nil {
		return err
	}
	fmt.Fprintf(io.out, "backed up %s to %s in %s\n", cfg.dbPath(), fl.Arg(0), time.Since(start).Round(time.Millisecond))
	return nil
}

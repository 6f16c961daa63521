package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
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
	fl, finish := configFlags("user add", getenv, io.err, "data")
	admin := fl.Bool("admin", false, "create an admin rather than a member")
	pos, err := parseInterspersed(fl, args[1:]) // flags before or after the name
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
	if len(pos) > 1 {
		return fmt.Errorf("user add: unexpected argument %q", pos[1])
	}
	name := ""
	if len(pos) == 1 {
		name = pos[0]
	}
	if msg := store.ValidateUsername(name); msg != "" {
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
	if *admin {
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

// cmdBackup copies the live database with VACUUM INTO: consistent even while the server writes,
// and compacted. Restore by stopping the server and putting the copy in place as rehearse.db
// (docs/operations.md).
func cmdBackup(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	cfg, pos, err := parseConfig("backup", args, getenv, io.err, "data")
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintln(io.err, "usage: rehearse backup [--data DIR] FILE")
		return exitError{2}
	}
	dst := pos[0]
	if _, err := os.Stat(cfg.dbPath()); err != nil {
		return fmt.Errorf("backup: no database at %s", cfg.dbPath())
	}
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("backup: %s already exists; choose a new file name", dst)
	}
	if st, err := os.Stat(filepath.Dir(dst)); err != nil || !st.IsDir() {
		return fmt.Errorf("backup: the directory of %s does not exist", dst)
	}
	db, err := store.Open(ctx, cfg.dbPath(), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	if err := db.Backup(ctx, dst); err != nil {
		os.Remove(dst) // never leave a half-written copy that looks like a backup
		return err
	}
	size := int64(0)
	if st, err := os.Stat(dst); err == nil {
		size = st.Size()
	}
	fmt.Fprintf(io.out, "backed up %s to %s (%d KiB) in %s\n", cfg.dbPath(), dst, (size+1023)/1024, time.Since(start).Round(time.Millisecond))
	return nil
}

// cmdHealthcheck asks a running server's /healthz and exits 0 when it answers 200: the Docker
// HEALTHCHECK, since the runtime image has no curl. A wildcard listen address is probed on
// loopback.
func cmdHealthcheck(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	cfg, _, err := parseConfig("healthcheck", args, getenv, io.err, "addr")
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return fmt.Errorf("healthcheck: bad address %q", cfg.Addr)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+"/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(io.err, "unhealthy:", err)
		return exitError{1}
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(io.err, "unhealthy: status", resp.StatusCode)
		return exitError{1}
	}
	fmt.Fprintln(io.out, "healthy")
	return nil
}

// Command rehearse is the Rehearse server and its companion tools.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// stdio bundles a command's standard streams so subcommands are testable without a process.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// exitError carries a process exit code without printing anything more.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, stdio{os.Stdin, os.Stdout, os.Stderr})
	if err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "rehearse:", err)
		os.Exit(1)
	}
}

const usage = `usage: rehearse [command] [flags]

commands:
  serve            run the web app (the default)
  check [DIR]      validate a deck and print every error
  import FILE...   convert plain-text cards or an Anki .apkg to markdown cards (-o DIR: write files)
  export --apkg -o FILE [DIR]  write a deck as an Anki package
  sim [FILE]       run a rebalance simulation scenario (JSON) and print the result
  hear FILE        check a recorded answer offline (--card ID, --depth, --json)
  user add NAME    create a user (password on stdin); --admin for an admin
  token create USER  print a new API token for USER (for scripts and CI)
  deck push DIR    upload the cards under DIR to an instance (--url, --token; --prune)
  deck pull DIR    write the cards stored in an instance to DIR (--url, --token; --all)
  migrate          apply database migrations and exit
  backup FILE      write a consistent copy of the database while the server runs
  fsrs optimize LOG.csv  fit FSRS parameters to a review log (also: fsrs loss, fsrs simulate)
  healthcheck      exit 0 if the server at --addr answers /healthz (for Docker)

Run "rehearse COMMAND -h" for a command's flags.
`

// run dispatches to a subcommand. getenv is passed in so tests control the environment.
func run(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return cmdServe(ctx, args, getenv, io)
	case "check":
		return cmdCheck(ctx, args, getenv, io)
	case "import":
		return cmdImport(ctx, args, getenv, io)
	case "export":
		return cmdExport(ctx, args, getenv, io)
	case "sim":
		return cmdSim(ctx, args, getenv, io)
	case "hear":
		return cmdHear(ctx, args, getenv, io)
	case "user":
		return cmdUser(ctx, args, getenv, io)
	case "token":
		return cmdToken(ctx, args, getenv, io)
	case "deck":
		return cmdDeck(ctx, args, getenv, io)
	case "migrate":
		return cmdMigrate(ctx, args, getenv, io)
	case "backup":
		return cmdBackup(ctx, args, getenv, io)
	case "fsrs":
		return cmdFSRS(ctx, args, getenv, io)
	case "healthcheck":
		return cmdHealthcheck(ctx, args, getenv, io)
	case "help", "-h", "--help":
		fmt.Fprint(io.out, usage)
		return nil
	default:
		fmt.Fprint(io.err, usage)
		return fmt.Errorf("unknown command %q", cmd)
	}
}

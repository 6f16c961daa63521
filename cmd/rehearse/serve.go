package main

import (
	"context"
	"errors"
)

func cmdServe(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	return errors.New("serve: not built yet")
}

func cmdUser(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	return errors.New("user: not built yet")
}

func cmdMigrate(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	return errors.New("migrate: not built yet")
}

func cmdBackup(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	return errors.New("backup: not built yet")
}

//go:build !unix

package main

// lockDataDir is a no-op where flock(2) does not exist; run one server per data directory.
func lockDataDir(string) (func(), error) { return func() {}, nil }

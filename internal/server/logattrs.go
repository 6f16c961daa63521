package server

import (
	"log/slog"
	"strconv"
	"unicode/utf8"
)

// maxLoggedPath and maxLoggedMethod bound what one request can write to the log: a client
// choosing a megabyte path or method gets a line of a few hundred bytes.
const (
	maxLoggedPath   = 256
	maxLoggedMethod = 16
)

func levelFor(status int) slog.Level {
	if status >= 500 {
		return slog.LevelError
	}
	return slog.LevelInfo
}

// methodAttr logs a standard method as is, and any other as OTHER with its first bytes.
func methodAttr(m string) slog.Attr {
	if l := methodLabel(m); l != "OTHER" {
		return slog.String("method", l)
	}
	return slog.String("method", "OTHER "+strconv.Quote(cut(m, maxLoggedMethod)))
}

// cut shortens s to at most n bytes on a rune boundary, marking the cut with "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

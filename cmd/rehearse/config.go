package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/server"
)

// config is every setting of the server. Each has a flag and a REHEARSE_* variable; the flag
// wins. The README's configuration table lists them all.
type config struct {
	Addr        string
	DataDir     string
	Content     string
	LogLevel    string
	LogFormat   string
	BaseURL     string
	Private     bool
	SessionTTL  time.Duration
	MetricsAddr string
	Proxies     string

	TrustedProxies []netip.Prefix // parsed from Proxies
}

// setting describes one flag with its environment variable, so help text and README agree.
type setting struct {
	flag, env, def, help string
}

var settings = []setting{
	{"addr", "REHEARSE_ADDR", "127.0.0.1:8080", "listen address (host:port)"},
	{"data", "REHEARSE_DATA", "./data", "data directory (holds rehearse.db)"},
	{"content", "REHEARSE_CONTENT", "", "serve the deck in this directory instead of the embedded one"},
	{"log-level", "REHEARSE_LOG_LEVEL", "info", "log level: debug, info, warn, error"},
	{"log-format", "REHEARSE_LOG_FORMAT", "text", "log format: text or json"},
	{"base-url", "REHEARSE_BASE_URL", "", "external URL, e.g. https://rehearse.example.com (https turns on Secure cookies)"},
	{"private", "REHEARSE_PRIVATE", "false", "private mode: only the login page without a session"},
	{"session-ttl", "REHEARSE_SESSION_TTL", "720h", "how long a login lasts"},
	{"metrics-addr", "REHEARSE_METRICS_ADDR", "", "serve Prometheus metrics on this separate address (empty: admins only at /metrics)"},
	{"trusted-proxies", "REHEARSE_TRUSTED_PROXIES", "", "comma-separated CIDRs or addresses of reverse proxies whose X-Forwarded-For/Proto are trusted"},
}

// parseConfig reads flags over environment defaults.
func parseConfig(name string, args []string, getenv func(string) string, errOut io.Writer, only ...string) (config, *flag.FlagSet, error) {
	fs := flag.NewFlagSet("rehearse "+name, flag.ContinueOnError)
	fs.SetOutput(errOut)
	vals := map[string]*string{}
	for _, s := range settings {
		if len(only) > 0 && !contains(only, s.flag) {
			continue
		}
		def := s.def
		if v := getenv(s.env); v != "" {
			def = v
		}
		vals[s.flag] = fs.String(s.flag, def, s.help+" ($"+s.env+")")
	}
	if err := fs.Parse(args); err != nil {
		return config{}, fs, err
	}
	get := func(k string) string {
		if p := vals[k]; p != nil {
			return *p
		}
		for _, s := range settings {
			if s.flag == k {
				return s.def
			}
		}
		return ""
	}
	c := config{
		Addr: get("addr"), DataDir: get("data"), Content: get("content"),
		LogLevel: get("log-level"), LogFormat: get("log-format"), BaseURL: strings.TrimRight(get("base-url"), "/"),
		MetricsAddr: get("metrics-addr"), Proxies: get("trusted-proxies"),
	}
	var err error
	if c.Private, err = strconv.ParseBool(get("private")); err != nil {
		return c, fs, fmt.Errorf("-private: want true or false, got %q", get("private"))
	}
	if c.SessionTTL, err = time.ParseDuration(get("session-ttl")); err != nil || c.SessionTTL < time.Minute {
		return c, fs, fmt.Errorf("-session-ttl: want a duration of at least 1m, got %q", get("session-ttl"))
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c, fs, fmt.Errorf("-base-url: want an absolute http(s) URL, got %q", c.BaseURL)
		}
	}
	if c.TrustedProxies, err = server.ParseTrustedProxies(c.Proxies); err != nil {
		return c, fs, fmt.Errorf("-trusted-proxies: %w", err)
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			return c, fs, fmt.Errorf("-metrics-addr: want host:port, got %q", c.MetricsAddr)
		}
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return c, fs, fmt.Errorf("-log-format: want text or json, got %q", c.LogFormat)
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return c, fs, fmt.Errorf("-log-level: want debug, info, warn or error, got %q", c.LogLevel)
	}
	return c, fs, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (c config) dbPath() string { return strings.TrimRight(c.DataDir, "/") + "/rehearse.db" }

func (c config) logger(w io.Writer) *slog.Logger {
	var lvl slog.Level
	lvl.UnmarshalText([]byte(c.LogLevel))
	opts := &slog.HandlerOptions{Level: lvl}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func (c config) secureCookies() bool { return strings.HasPrefix(c.BaseURL, "https://") }

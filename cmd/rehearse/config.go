package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/server"
	"github.com/rehearse/rehearse/internal/transcribe"
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
	Transcribe  string // OpenAI-compatible transcription endpoint, "" for none
	Quota       string // recordings quota per user, "200MiB"

	QuotaBytes int64 // parsed from Quota; 0: no limit

	// Sign-in from outside (config_sso.go).
	OIDCIssuer, OIDCClientID, OIDCClientSecret string
	OIDCName, OIDCAccounts                     string
	OIDCGroupsClaim, OIDCAdminGroup            string
	PasswordLogin                              bool
	AuthProxyHeader, AuthProxyEmailHeader      string

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
	{"transcribe-url", "REHEARSE_TRANSCRIBE_URL", "", "OpenAI-compatible /v1/audio/transcriptions endpoint for transcripts of recorded answers (empty: off)"},
	{"oidc-issuer", "REHEARSE_OIDC_ISSUER", "", "OpenID Connect issuer URL; turns on single sign-on (empty: off)"},
	{"oidc-client-id", "REHEARSE_OIDC_CLIENT_ID", "", "client id registered at the OpenID Connect provider"},
	{"oidc-client-secret", "REHEARSE_OIDC_CLIENT_SECRET", "", "client secret registered at the OpenID Connect provider (prefer the variable)"},
	{"oidc-name", "REHEARSE_OIDC_NAME", "single sign-on", "what the login page's button calls the provider"},
	{"oidc-accounts", "REHEARSE_OIDC_ACCOUNTS", "create", "first sign-in of someone unknown: create (a member account) or link (only to an account holding their verified email)"},
	{"oidc-groups-claim", "REHEARSE_OIDC_GROUPS_CLAIM", "groups", "claim listing the user's groups"},
	{"oidc-admin-group", "REHEARSE_OIDC_ADMIN_GROUP", "", "members of this group are admins, others members (empty: roles are set here)"},
	{"password-login", "REHEARSE_PASSWORD_LOGIN", "true", "allow signing in with a local password"},
	{"auth-proxy-header", "REHEARSE_AUTH_PROXY_HEADER", "", "header in which a trusted login proxy names the user, e.g. Remote-User (empty: off)"},
	{"auth-proxy-email-header", "REHEARSE_AUTH_PROXY_EMAIL_HEADER", "", "header in which the login proxy passes the user's email, e.g. Remote-Email"},
	{"recordings-quota", "REHEARSE_RECORDINGS_QUOTA", "200MiB", "audio each user may keep, e.g. 200MiB or 1GiB (0: no limit)"},
}

// parseConfig reads flags over environment defaults, accepting flags before and after the
// positional arguments, which it returns. only limits the settings offered (all when empty).
func parseConfig(name string, args []string, getenv func(string) string, errOut io.Writer, only ...string) (config, []string, error) {
	fs, finish := configFlags(name, getenv, errOut, only...)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return config{}, nil, err
	}
	c, err := finish()
	return c, pos, err
}

// configFlags registers the settings on a new flag set, typed (a bool flag needs no value, a
// duration is parsed by the flag package); a command adds its own flags before parsing.
// finish, called after parsing, validates and returns the config.
func configFlags(name string, getenv func(string) string, errOut io.Writer, only ...string) (*flag.FlagSet, func() (config, error)) {
	fs := flag.NewFlagSet("rehearse "+name, flag.ContinueOnError)
	fs.SetOutput(errOut)
	c := config{}
	var envErrs []error
	for _, s := range settings {
		def := s.def
		if v := getenv(s.env); v != "" {
			def = v
		}
		help := s.help + " ($" + s.env + ")"
		offered := len(only) == 0 || slices.Contains(only, s.flag)
		if !offered {
			def = s.def // not offered by this command: the built-in default
		}
		switch s.flag {
		case "private", "password-login":
			b, err := strconv.ParseBool(def)
			if err != nil {
				envErrs = append(envErrs, fmt.Errorf("$%s: want true or false, got %q", s.env, def))
			}
			p := &c.Private
			if s.flag == "password-login" {
				p = &c.PasswordLogin
			}
			*p = b
			if offered {
				fs.BoolVar(p, s.flag, b, help)
			}
		case "session-ttl":
			d, err := time.ParseDuration(def)
			if err != nil {
				envErrs = append(envErrs, fmt.Errorf("$%s: want a duration like 720h, got %q", s.env, def))
			}
			c.SessionTTL = d
			if offered {
				fs.DurationVar(&c.SessionTTL, s.flag, d, help)
			}
		default:
			p := c.stringField(s.flag)
			*p = def
			if offered {
				fs.StringVar(p, s.flag, def, help)
			}
		}
	}
	return fs, func() (config, error) {
		if err := errors.Join(envErrs...); err != nil {
			return c, err
		}
		return c, c.validate()
	}
}

// stringField is the config field a string setting fills.
func (c *config) stringField(flag string) *string {
	switch flag {
	case "addr":
		return &c.Addr
	case "data":
		return &c.DataDir
	case "content":
		return &c.Content
	case "log-level":
		return &c.LogLevel
	case "log-format":
		return &c.LogFormat
	case "base-url":
		return &c.BaseURL
	case "metrics-addr":
		return &c.MetricsAddr
	case "trusted-proxies":
		return &c.Proxies
	case "transcribe-url":
		return &c.Transcribe
	case "oidc-issuer":
		return &c.OIDCIssuer
	case "oidc-client-id":
		return &c.OIDCClientID
	case "oidc-client-secret":
		return &c.OIDCClientSecret
	case "oidc-name":
		return &c.OIDCName
	case "oidc-accounts":
		return &c.OIDCAccounts
	case "oidc-groups-claim":
		return &c.OIDCGroupsClaim
	case "oidc-admin-group":
		return &c.OIDCAdminGroup
	case "auth-proxy-header":
		return &c.AuthProxyHeader
	case "auth-proxy-email-header":
		return &c.AuthProxyEmailHeader
	case "recordings-quota":
		return &c.Quota
	}
	panic("config: no field for setting " + flag)
}

// validate checks the values and derives the parsed ones; each error names its flag.
func (c *config) validate() error {
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.SessionTTL < time.Minute {
		return fmt.Errorf("-session-ttl: want a duration of at least 1m, got %s", c.SessionTTL)
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("-base-url: want an absolute http(s) URL, got %q", c.BaseURL)
		}
	}
	var err error
	if c.TrustedProxies, err = server.ParseTrustedProxies(c.Proxies); err != nil {
		return fmt.Errorf("-trusted-proxies: %w", err)
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			return fmt.Errorf("-metrics-addr: want host:port, got %q", c.MetricsAddr)
		}
	}
	if c.Transcribe != "" {
		if err := transcribe.CheckURL(c.Transcribe); err != nil {
			return fmt.Errorf("-transcribe-url: %w", err)
		}
	}
	if err := c.validateSignIn(); err != nil { // config_sso.go
		return err
	}
	if c.QuotaBytes, err = parseSize(c.Quota); err != nil {
		return fmt.Errorf("-recordings-quota: want a size like 200MiB or 1GiB, got %q", c.Quota)
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("-log-format: want text or json, got %q", c.LogFormat)
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return fmt.Errorf("-log-level: want debug, info, warn or error, got %q", c.LogLevel)
	}
	return nil
}

// parseInterspersed parses flags wherever they appear among the positional arguments (the
// flag package stops at the first positional one), so `import FILE -o DIR` works like
// `import -o DIR FILE`. Everything after "--" is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if i := len(args) - len(rest); i > 0 && args[i-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
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

// parseSize reads "200MiB", "1GiB", "500KiB" or a number of bytes.
func parseSize(v string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if strings.HasSuffix(v, u.suffix) {
			v, mult = strings.TrimSuffix(v, u.suffix), u.n
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 || n > (1<<50)/mult {
		return 0, errors.New("bad size")
	}
	return n * mult, nil
}

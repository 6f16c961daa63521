package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigProxiesAndMetricsAddr(t *testing.T) {
	cfg, _, err := parseConfig("serve", []string{"--trusted-proxies", "10.0.0.0/8, 127.0.0.1"}, env(nil), io.Discard)
	if err != nil || len(cfg.TrustedProxies) != 2 || cfg.TrustedProxies[1].String() != "127.0.0.1/32" {
		t.Fatalf("trusted proxies = %v, %v", cfg.TrustedProxies, err)
	}
	// The environment is used when no flag is given; the flag wins over it.
	cfg, _, err = parseConfig("serve", nil, env(map[string]string{"REHEARSE_METRICS_ADDR": "127.0.0.1:9090"}), io.Discard)
	if err != nil || cfg.MetricsAddr != "127.0.0.1:9090" {
		t.Fatalf("metrics addr from env = %q, %v", cfg.MetricsAddr, err)
	}
	cfg, _, _ = parseConfig("serve", []string{"--metrics-addr", ":9100"}, env(map[string]string{"REHEARSE_METRICS_ADDR": "127.0.0.1:9090"}), io.Discard)
	if cfg.MetricsAddr != ":9100" {
		t.Fatalf("flag did not win: %q", cfg.MetricsAddr)
	}
	for _, bad := range [][]string{{"--trusted-proxies", "10.0.0.0/40"}, {"--trusted-proxies", "proxy"}, {"--metrics-addr", "9090"}} {
		if _, _, err := parseConfig("serve", bad, env(nil), io.Discard); err == nil || !strings.Contains(err.Error(), bad[0][2:]) {
			t.Errorf("%v: err = %v, want one naming the flag", bad, err)
		}
	}
}

// TestReadmeListsEverySetting keeps the README's configuration table in step with the settings.
func TestReadmeListsEverySetting(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skip("README.md not found")
	}
	readme := string(b)
	for _, s := range settings {
		if !strings.Contains(readme, "`--"+s.flag+"`") || !strings.Contains(readme, "`"+s.env+"`") {
			t.Errorf("README configuration table lacks --%s / %s", s.flag, s.env)
		}
		if !strings.HasPrefix(s.env, "REHEARSE_") {
			t.Errorf("setting %s: variable %s lacks the REHEARSE_ prefix", s.flag, s.env)
		}
	}
}

// A bool flag stands alone, takes =false, and the environment's value is its default.
func TestConfigBoolFlagsAndEnv(t *testing.T) {
	cfg, pos, err := parseConfig("serve", []string{"--private", "extra", "--addr", ":0"}, env(nil), io.Discard)
	if err != nil || !cfg.Private || cfg.Addr != ":0" || len(pos) != 1 || pos[0] != "extra" {
		t.Fatalf("cfg %+v pos %v err %v", cfg, pos, err)
	}
	cfg, _, err = parseConfig("serve", []string{"--private=false"}, env(map[string]string{"REHEARSE_PRIVATE": "true"}), io.Discard)
	if err != nil || cfg.Private {
		t.Fatalf("--private=false over the environment: %+v %v", cfg.Private, err)
	}
	if cfg, _, _ = parseConfig("serve", nil, env(map[string]string{"REHEARSE_PRIVATE": "1"}), io.Discard); !cfg.Private {
		t.Fatal("REHEARSE_PRIVATE=1 ignored")
	}
	if _, _, err = parseConfig("serve", nil, env(map[string]string{"REHEARSE_PRIVATE": "maybe"}), io.Discard); err == nil || !strings.Contains(err.Error(), "REHEARSE_PRIVATE") {
		t.Fatalf("bad env: %v", err)
	}
	if _, _, err = parseConfig("serve", []string{"--session-ttl", "10s"}, env(nil), io.Discard); err == nil || !strings.Contains(err.Error(), "session-ttl") {
		t.Fatalf("short ttl: %v", err)
	}
}

// `rehearse --help` prints the subcommands, not only serve's flags.
func TestHelpListsSubcommands(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		var out, errb strings.Builder
		if err := run(t.Context(), args, env(nil), stdio{strings.NewReader(""), &out, &errb}); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		all := out.String() + errb.String()
		for _, cmd := range []string{"check", "import", "user add", "token create", "deck push", "deck pull", "backup"} {
			if !strings.Contains(all, cmd) {
				t.Errorf("%v: help lacks %q:\n%s", args, cmd, all)
			}
		}
	}
}

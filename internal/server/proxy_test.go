package server

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"
)

func TestClientAddrTrustedProxies(t *testing.T) {
	t.Parallel()
	proxies, err := ParseTrustedProxies("10.0.0.0/8, 192.168.1.1")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{cfg: Config{TrustedProxies: proxies}}
	cases := []struct {
		remote, xff, want string
	}{
		{"203.0.113.9:5000", "1.2.3.4", "203.0.113.9"},             // untrusted peer: header ignored
		{"10.1.2.3:5000", "1.2.3.4", "1.2.3.4"},                    // trusted proxy
		{"10.1.2.3:5000", "6.6.6.6, 1.2.3.4, 10.9.9.9", "1.2.3.4"}, // skip trusted hops from the right
		{"192.168.1.1:80", "", "192.168.1.1"},                      // no header
		{"10.1.2.3:5000", "garbage", "10.1.2.3"},                   // unparsable: the proxy itself
		{"[::ffff:10.1.2.3]:5000", "2001:db8::1", "2001:db8::1"},   // mapped IPv4 peer
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		if got := s.clientAddr(r).String(); got != c.want {
			t.Errorf("remote %s xff %q: got %s, want %s", c.remote, c.xff, got, c.want)
		}
	}
	if _, err := ParseTrustedProxies("10.0.0.0/33"); err == nil {
		t.Error("bad CIDR accepted")
	}
	if _, err := ParseTrustedProxies("proxy.local"); err == nil {
		t.Error("host name accepted")
	}
}

func TestSchemeAndAbsURL(t *testing.T) {
	t.Parallel()
	proxies, _ := ParseTrustedProxies("127.0.0.1")
	s := &Server{cfg: Config{TrustedProxies: proxies}}
	r := httptest.NewRequest("GET", "http://rehearse.test/", nil)
	r.RemoteAddr = "127.0.0.1:1234"
	r.Header.Set("X-Forwarded-Proto", "https")
	if s.scheme(r) != "https" {
		t.Errorf("trusted proxy's X-Forwarded-Proto not believed")
	}
	r.RemoteAddr = "198.51.100.1:1234"
	if s.scheme(r) != "http" {
		t.Errorf("untrusted X-Forwarded-Proto believed")
	}
	r.TLS = &tls.ConnectionState{}
	if s.scheme(r) != "https" {
		t.Error("TLS connection not https")
	}
}

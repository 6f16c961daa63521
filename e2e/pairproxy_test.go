package e2e

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPairEventsThroughNginx: the pair interview's server-sent events pass through nginx as
// configured in docs/operations.md (no buffering settings of its own): the start reaches the
// candidate's stream at once, not when a buffer fills or the stream ends.
func TestPairEventsThroughNginx(t *testing.T) {
	parallelTest(t)
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if _, err := os.Stat("/usr/sbin/nginx"); err != nil {
			t.Skip("nginx is not installed (apt-get install nginx-light)")
		}
		nginx = "/usr/sbin/nginx"
	}
	app := StartApp(t, "")
	AddUser(t, app.DataDir, "ada", "analytical-engine", false)
	AddUser(t, app.DataDir, "bob", "bob-password-1", false)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	conf := fmt.Sprintf(`daemon off; master_process off; pid %[1]s/nginx.pid; error_log stderr warn;
events {}
http {
    access_log off;
    client_body_temp_path %[1]s; proxy_temp_path %[1]s; fastcgi_temp_path %[1]s; uwsgi_temp_path %[1]s; scgi_temp_path %[1]s;
    server {
        listen %[2]s;
        location / {
            proxy_pass %[3]s;
            proxy_set_header Host              $host;
            proxy_set_header X-Forwarded-For   $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }
    }
}
`, dir, addr, app.URL)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nginx, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base := "http://" + addr
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if i > 100 {
			t.Fatal("nginx did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}

	ada, bob := opsClient(), opsClient()
	opsLogin(t, ada, base, "ada", "analytical-engine")
	opsLogin(t, bob, base, "bob", "bob-password-1")
	_, doc := opsDoc(t, ada, base+"/pair")
	cand, _ := doc.Find(`#pair-candidate option`).Attr("value")
	resp, err := ada.PostForm(base+"/pair", url.Values{"candidate": {cand}, "card": {"eager-vs-cooperative"}})
	if err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("open a session through nginx: %v %v", resp.StatusCode, err)
	}
	resp.Body.Close()
	path := resp.Header.Get("Location")

	stream, err := bob.Get(base + path + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	data := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(stream.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				data <- d
			}
		}
		close(data)
	}()
	wait := func(state string) time.Duration {
		t.Helper()
		start := time.Now()
		select {
		case d := <-data:
			if !strings.Contains(d, `"state":"`+state+`"`) {
				t.Fatalf("event %s, want %s", d, state)
			}
		case <-time.After(10 * time.Second): // the heartbeat is every 20 s
			t.Fatalf("no %s event through nginx within 10 s: buffered", state)
		}
		return time.Since(start)
	}
	wait("waiting")
	resp, err = ada.PostForm(base+path+"/start", nil)
	if err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("start through nginx: %v %v", resp.StatusCode, err)
	}
	resp.Body.Close()
	wait("running")
}

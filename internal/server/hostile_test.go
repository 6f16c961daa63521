package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
)

// hostileScript is the payload whose unescaped echo would be an XSS hole.
const hostileScript = `<script>alert("rehearse")</script>`

// hostileValues go into every form field, query parameter and path parameter.
var hostileValues = map[string]string{
	"script":   hostileScript,
	"attr":     `"><img src=x onerror=alert(1)>`,
	"sql":      `' OR 1=1; DROP TABLE users; --`,
	"badutf8":  "\xff\xfe\xc3\x28 caf\xe9",
	"nul":      "a\x00b",
	"negative": "-9223372036854775809",
	"enormous": "99999999999999999999999999999999999999",
	"float":    "1e308",
	"nan":      "NaN",
	"dotdot":   "../../../../etc/passwd",
	"long":     strings.Repeat("A", 4000), // × every field name: a few hundred kB, under the cap
	"empty":    "",
}

// hostileRoutes walks the router: every method and pattern it serves.
func hostileRoutes(t *testing.T, s *Server) []string {
	t.Helper()
	var routes []string
	err := chi.Walk(s.router(), func(method, pattern string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if pattern != "/static/*" || method == http.MethodGet {
			routes = append(routes, method+" "+pattern)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(routes)
	if len(routes) < 30 {
		t.Fatalf("only %d routes walked", len(routes))
	}
	return routes
}

// fieldNames collects every form field and link parameter name the app's own pages use, as an
// admin sees them, so each form is attacked through the names it really reads.
func fieldNames(t *testing.T, e *testEnv, token string, routes []string) []string {
	t.Helper()
	names := map[string]bool{"q": true, "next": true, "t": true, "preset": true, "kind": true, "reveal": true}
	for _, rt := range routes {
		method, pattern, _ := strings.Cut(rt, " ")
		if method != http.MethodGet || pattern == "/static/*" {
			continue
		}
		rec := serve(e, method, samplePath(e.srv, pattern), "", "", nil, token)
		doc, err := goquery.NewDocumentFromReader(rec.Body)
		if err != nil {
			continue
		}
		doc.Find("input[name], select[name], textarea[name], button[name]").Each(func(_ int, s *goquery.Selection) {
			names[s.AttrOr("name", "")] = true
		})
		doc.Find("a[href]").Each(func(_ int, s *goquery.Selection) {
			if u, err := url.Parse(s.AttrOr("href", "")); err == nil {
				for k := range u.Query() {
					names[k] = true
				}
			}
		})
	}
	delete(names, "")
	var out []string
	for n := range names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// serve sends one request straight to the handler. A zero-length body with a non-empty
// contentType still sets the header.
func serve(e *testEnv, method, target, contentType, accept string, body io.Reader, token string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "/", body)
	u, err := url.Parse(target)
	if err != nil { // a hostile path that is not a URL: send it raw
		u = &url.URL{Path: target}
	}
	req.URL, req.RequestURI = u, target
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if token != "" {
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: token})
	}
	rec := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(rec, req)
	return rec
}

// hostileCase is one request to one route.
type hostileCase struct {
	name        string
	target      string
	contentType string
	accept      string
	body        func() io.Reader
	wantStatus  int // 0: any 2xx–4xx
}

// everyField is v in every field name, form-encoded: a query string or a form body.
func everyField(names []string, v string) string {
	q := url.Values{}
	for _, n := range names {
		q.Set(n, v)
	}
	return q.Encode()
}

// hostileForms is everyField for each of hostileValues (and "1"), encoded once per run rather
// than once per route: the names are the same for every route.
func hostileForms(names []string) map[string]string {
	forms := map[string]string{"1": everyField(names, "1")}
	for key, v := range hostileValues {
		forms[key] = everyField(names, v)
	}
	return forms
}

func formBody(encoded string) func() io.Reader {
	return func() io.Reader { return strings.NewReader(encoded) }
}

// The oversized bodies, built once: the readers over them only read.
var (
	hugeForm      = bytes.Repeat([]byte("a=b&"), (maxBody+4096)/4)
	hugeMultipart = bytes.Repeat([]byte("<script>"), maxBody/8+1)
)

// hostileCases builds the attacks on one route; forms is hostileForms of the field names.
func hostileCases(path, method, pattern string, forms map[string]string) []hostileCase {
	var cs []hostileCase
	for key, v := range hostileValues {
		// Path parameters replaced by the hostile value.
		if strings.Contains(pattern, "{") {
			p := pattern
			for strings.Contains(p, "{") {
				i, j := strings.Index(p, "{"), strings.Index(p, "}")
				p = p[:i] + url.PathEscape(v) + p[j+1:]
			}
			cs = append(cs, hostileCase{name: "path " + key, target: p})
		}
		cs = append(cs, hostileCase{name: "query " + key, target: path + "?" + forms[key]})
		if method == http.MethodPost {
			cs = append(cs, hostileCase{name: "form " + key, target: path,
				contentType: "application/x-www-form-urlencoded", body: formBody(forms[key])})
		}
		if method == http.MethodPost && (key == "script" || key == "badutf8" || key == "negative") {
			cs = append(cs, hostileCase{name: "form+json " + key, target: path, accept: "application/json",
				contentType: "application/x-www-form-urlencoded", body: formBody(forms[key])})
		}
	}
	if method != http.MethodPost {
		return cs
	}
	huge := func() io.Reader { return bytes.NewReader(hugeForm) }
	chunked := func() io.Reader { return io.MultiReader(huge()) } // no length known up front
	jsonBody := func() io.Reader {
		return strings.NewReader(`{"username":"` + hostileScript + `","n":-1,"rating":1e999,"card":[1,2]}`)
	}
	cs = append(cs,
		hostileCase{name: "no body", target: path, contentType: "application/x-www-form-urlencoded", body: func() io.Reader { return http.NoBody }},
		hostileCase{name: "huge body", target: path, contentType: "application/x-www-form-urlencoded", body: huge, wantStatus: http.StatusRequestEntityTooLarge},
		hostileCase{name: "huge chunked body", target: path, contentType: "application/x-www-form-urlencoded", body: chunked, wantStatus: http.StatusRequestEntityTooLarge},
		hostileCase{name: "json as form", target: path, contentType: "application/json", body: jsonBody},
		hostileCase{name: "json as form, json accepted", target: path, contentType: "application/json", accept: "application/json", body: jsonBody},
		hostileCase{name: "text/plain", target: path, contentType: "text/plain", body: formBody(forms["script"])},
		hostileCase{name: "no content type", target: path, body: formBody(forms["1"])},
		hostileCase{name: "broken multipart", target: path, contentType: "multipart/form-data; boundary=xyz",
			body: func() io.Reader {
				return strings.NewReader("--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n" + hostileScript)
			}},
		hostileCase{name: "huge chunked multipart", target: path, contentType: "multipart/form-data; boundary=xyz",
			body: func() io.Reader {
				return io.MultiReader(strings.NewReader("--xyz\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.txt\"\r\n\r\n"),
					bytes.NewReader(hugeMultipart))
			}},
		hostileCase{name: "bad percent-encoding", target: path, contentType: "application/x-www-form-urlencoded",
			body: func() io.Reader { return strings.NewReader("username=%zz&password=%&rating=%ff%fe") }},
		hostileCase{name: "bad utf-8 raw", target: path, contentType: "application/x-www-form-urlencoded; charset=utf-8",
			body: func() io.Reader { return strings.NewReader("username=\xff\xfe&card=\xc3\x28&q=\xed\xa0\x80") }},
	)
	return cs
}

// TestHostileInput sends malformed, oversized and hostile input to every route as an anonymous
// visitor, a member and an admin. Never a 5xx; errors carry a message; the script payload is
// never echoed unescaped; oversized bodies get a 413.
func TestHostileInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	ctx := context.Background()
	users := map[string]int64{}
	for _, r := range []struct{ name, role string }{{"member", store.RoleMember}, {"admin", store.RoleAdmin}} {
		u, err := e.db.CreateUser(ctx, r.name, dummyHash, r.role, e.now)
		if err != nil {
			t.Fatal(err)
		}
		users[r.name] = u.ID
	}
	routes := hostileRoutes(t, e.srv)
	names := fieldNames(t, e, sessionFor(t, e, users["admin"]), routes)
	t.Logf("%d routes, %d field names: %v", len(routes), len(names), names)
	realPath := realObjects(t, e, users)
	forms := hostileForms(names)
	requests, statuses := 0, map[int]int{}
	for _, rt := range routes {
		method, pattern, _ := strings.Cut(rt, " ")
		start := time.Now()
		path := realPath(pattern)
		full := hostileCases(path, method, pattern, forms)
		attacked := false // the first role let in gets every case; the others a sample
		for _, who := range []string{"anonymous", "member", "admin"} {
			token := func() string {
				if id, ok := users[who]; ok {
					return sessionFor(t, e, id) // fresh each time: some routes end the session
				}
				return ""
			}
			cases := sampleCases(full)
			if !attacked && letIn(serve(e, method, path, formType(method), "", http.NoBody, token())) {
				cases, attacked = full, true
			}
			for _, c := range cases {
				var body io.Reader
				if c.body != nil {
					body = c.body()
				}
				rec := serve(e, method, c.target, c.contentType, c.accept, body, token())
				requests++
				statuses[rec.Code]++
				checkHostile(t, fmt.Sprintf("%s as %s, %s", rt, who, c.name), c, rec)
			}
		}
		t.Logf("%s: %v", rt, time.Since(start).Round(time.Millisecond))
	}
	t.Logf("%d requests; statuses %v", requests, statuses)
}

// realObjects creates what the parameterised routes name (a victim account for the admin
// actions, a mock interview of the member's, an invite and a reset link) and returns a func
// that fills a pattern with them, so the attacks reach the handlers' form parsing rather than a
// 404. Each call makes a fresh mock interview and fresh links: attacks may finish or use them.
func realObjects(t *testing.T, e *testEnv, users map[string]int64) func(pattern string) string {
	ctx := context.Background()
	victim, err := e.db.CreateUser(ctx, "victim", dummyHash, store.RoleMember, e.now)
	if err != nil {
		t.Fatal(err)
	}
	return func(pattern string) string {
		p := strings.Replace(pattern, "/admin/users/{id}", fmt.Sprintf("/admin/users/%d", victim.ID), 1)
		if strings.HasPrefix(p, "/mock/{id}") {
			form := "n=2&depth=basics&clock=soft&seed=hostile"
			rec := serve(e, http.MethodPost, "/mock", "application/x-www-form-urlencoded", "", strings.NewReader(form), sessionFor(t, e, users["member"]))
			loc := rec.Header().Get("Location")
			if rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/mock/") {
				t.Fatalf("start a mock interview: %d %q", rec.Code, loc)
			}
			p = strings.Replace(p, "/mock/{id}", strings.TrimRight(loc, "/"), 1)
		}
		if strings.HasPrefix(p, "/invite/{token}") {
			token, digest := auth.NewToken()
			if err := e.db.CreateInvite(ctx, digest, store.RoleMember, users["admin"], e.now, e.now.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			p = strings.Replace(p, "{token}", token, 1)
		}
		if strings.HasPrefix(p, "/reset/{token}") {
			token, digest := auth.NewToken()
			if err := e.db.CreateReset(ctx, digest, victim.ID, e.now, e.now.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			p = strings.Replace(p, "{token}", token, 1)
		}
		return samplePath(e.srv, p)
	}
}

// letIn reports whether a plain request got past the login and role checks.
func letIn(rec *httptest.ResponseRecorder) bool {
	switch {
	case rec.Code == http.StatusUnauthorized, rec.Code == http.StatusForbidden:
		return false
	case rec.Code == http.StatusSeeOther && strings.HasPrefix(rec.Header().Get("Location"), "/login"):
		return false
	}
	return true
}

func formType(method string) string {
	if method == http.MethodPost {
		return "application/x-www-form-urlencoded"
	}
	return ""
}

// sampleCases is what a role that is refused anyway gets: the payloads most likely to slip
// through a check that runs before the login gate.
func sampleCases(all []hostileCase) []hostileCase {
	var out []hostileCase
	for _, c := range all {
		switch c.name {
		case "query script", "form script", "path script", "huge body", "huge chunked body", "bad percent-encoding":
			out = append(out, c)
		}
	}
	return out
}

func checkHostile(t *testing.T, what string, c hostileCase, rec *httptest.ResponseRecorder) {
	t.Helper()
	body := rec.Body.String()
	switch {
	case rec.Code >= 500:
		t.Errorf("%s: status %d", what, rec.Code)
	case c.wantStatus != 0 && rec.Code != c.wantStatus && rec.Code != http.StatusUnauthorized && rec.Code != http.StatusForbidden:
		// Refusing the user (401/403) before reading the body is as good as a 413.
		t.Errorf("%s: status %d, want %d", what, rec.Code, c.wantStatus)
	case rec.Code >= 400 && strings.TrimSpace(errorMessage(rec)) == "":
		t.Errorf("%s: status %d without a message", what, rec.Code)
	}
	if strings.Contains(body, hostileScript) || strings.Contains(body, `<img src=x onerror`) {
		t.Errorf("%s: status %d echoes the payload unescaped", what, rec.Code)
	}
}

// errorMessage is the text a user would read: the JSON "error", else the page's main text.
func errorMessage(rec *httptest.ResponseRecorder) string {
	if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		var m map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &m) == nil {
			s, _ := m["error"].(string)
			return s
		}
		return ""
	}
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		return rec.Body.String()
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		return ""
	}
	return doc.Find("main").Text()
}

// TestHostileBodyWithoutLength: a form sent chunked (no Content-Length) that runs over the cap
// is refused with a 413, and malformed form encoding with a 400, before any handler runs; they
// used to reach handlers as forms with missing fields (a 303 from /logout, a 422 elsewhere).
func TestHostileBodyWithoutLength(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	big := io.MultiReader(strings.NewReader("username=a&"), bytes.NewReader(bytes.Repeat([]byte("x"), maxBody)))
	rec := serve(e, http.MethodPost, "/logout", "application/x-www-form-urlencoded", "", big, "")
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked oversized form: status %d, want 413", rec.Code)
	}
	rec = serve(e, http.MethodPost, "/login", "application/x-www-form-urlencoded", "", strings.NewReader("username=%zz"), "")
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "form") {
		t.Fatalf("malformed form: status %d %q, want 400 with a message", rec.Code, rec.Body.String())
	}
}

// TestStudyAnswerJSON: a JSON client learns whether its rating was stored: 200 with the log row,
// then 409 for the same answer again (stale reps), and a browser is sent on to the next card.
func TestStudyAnswerJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	u, err := e.db.CreateUser(context.Background(), "ada", dummyHash, store.RoleMember, e.now)
	if err != nil {
		t.Fatal(err)
	}
	token := sessionFor(t, e, u.ID)
	form := "card=sample-eager&rating=3&reps=0"
	answer := func(accept string) *httptest.ResponseRecorder {
		return serve(e, http.MethodPost, "/study/answer", "application/x-www-form-urlencoded", accept, strings.NewReader(form), token)
	}
	rec := answer("application/json")
	var ok struct {
		OK    bool  `json:"ok"`
		LogID int64 `json:"log_id"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &ok); rec.Code != http.StatusOK || err != nil || !ok.OK || ok.LogID <= 0 {
		t.Fatalf("first answer: %d %s", rec.Code, rec.Body)
	}
	if rec := answer("application/json"); rec.Code != http.StatusConflict || errorMessage(rec) == "" {
		t.Fatalf("repeated answer: %d %s, want 409 with a message", rec.Code, rec.Body)
	}
	if rec := answer(""); rec.Code != http.StatusSeeOther {
		t.Fatalf("repeated answer from a browser: %d, want 303 to the next card", rec.Code)
	}
	hist, err := e.db.ReviewHistory(context.Background(), u.ID, "sample-eager")
	if err != nil || len(hist) != 1 || hist[0].ID != ok.LogID {
		t.Fatalf("review log %+v %v, want the one row %d", hist, err, ok.LogID)
	}
}

// TestHostileLoginNextStaysOnSite: a login's next= with a tab or newline used to be sent back as
// the Location; browsers drop those characters, so "/\t/evil.example" led to another site.
func TestHostileLoginNextStaysOnSite(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	if _, err := e.db.CreateUser(context.Background(), "ada", dummyHash, store.RoleMember, e.now); err != nil {
		t.Fatal(err)
	}
	for _, next := range []string{"/\t/evil.example", "/\n/evil.example", "/\r\n\\evil.example", "//evil.example", "/\\evil.example"} {
		form := url.Values{"username": {"ada"}, "password": {"not a real password"}, "next": {next}}
		rec := serve(e, http.MethodPost, "/login", "application/x-www-form-urlencoded", "", strings.NewReader(form.Encode()), "")
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/" {
			t.Errorf("next=%q: %d to %q, want 303 to /", next, rec.Code, rec.Header().Get("Location"))
		}
	}
}

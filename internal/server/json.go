package server

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strings"
)

func wantsJSON(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/api/") || strings.Contains(r.Header.Get("Accept"), "application/json")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// jsonBody refuses a body sent as a form with a 415 that says what to send: limitBody parses a
// form (what `curl -d` sends) before the handler runs, so the handler would otherwise read an
// empty body and answer with a decoding error about nothing. Other types are read as JSON,
// which older clients relied on.
func jsonBody(w http.ResponseWriter, r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err == nil && mt != "application/x-www-form-urlencoded" && mt != "multipart/form-data" {
		return true
	}
	writeJSON(w, http.StatusUnsupportedMediaType, map[string]string{
		"error": fmt.Sprintf("the body must be JSON sent as Content-Type: application/json, not %q (with curl: -H 'Content-Type: application/json' --data-binary @file.json)", cut(ct, 80))})
	return false
}

package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/simform"
	"github.com/rehearse/rehearse/internal/store"
)

// Short links to lab scenarios: POST /sim/share stores the lab's canonical query under a
// content hash and redirects to /sim/s/{id}, which renders the lab from it. The same scenario
// always gets the same id, so sharing is idempotent.

const maxShareQuery = 4096

// simSharesPerHour is how many short links one address may make in an hour: anyone may make
// them, and each is a row kept for months.
const simSharesPerHour = 60

var shareIDRE = regexp.MustCompile(`^[0-9a-f]{16}$`)

func (s *Server) simShare(w http.ResponseWriter, r *http.Request) {
	if ok, wait := s.shares.allow(addrBucket(s.clientAddr(r)), s.now()); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		s.fail(w, r, errStatus(http.StatusTooManyRequests, fmt.Sprintf(
			"This address made %d short links in the last hour; share the long address, or try again in %s.", simSharesPerHour, wait.Round(time.Minute))))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 2*maxShareQuery)
	raw := r.PostFormValue("q")
	q, err := url.ParseQuery(raw)
	if err != nil || len(raw) > maxShareQuery || q.Get("kind") == "" {
		s.fail(w, r, errStatus(http.StatusBadRequest, fmt.Sprintf("The scenario to share (field q) must be a lab query of at most %d characters that names a kind.", maxShareQuery)))
		return
	}
	canon := simform.ShareQuery(simform.FromQuery(q), q.Get("t")).Encode()
	id := simform.ShareID(canon)
	if err := s.db.SaveSimShare(r.Context(), id, canon, s.now()); err != nil {
		if errors.Is(err, store.ErrSharesFull) {
			err = errStatus(http.StatusServiceUnavailable, "No more short links can be stored; share the long address instead.")
		}
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/sim/s/"+id, http.StatusSeeOther)
}

func (s *Server) simShared(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if !shareIDRE.MatchString(id) {
		s.notFound(w, r)
		return
	}
	query, err := s.db.SimShare(r.Context(), id, s.now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	r2 := r.Clone(r.Context())
	u := *r.URL
	u.RawQuery = query
	r2.URL = &u
	s.renderLab(w, r2, s.externalURL(r)+"/sim/s/"+id) // printed whole, to be copied
}

package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/anki"
	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/cardform"
	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/studyview"
	"github.com/rehearse/rehearse/internal/views"
)

// Limits of an Anki import from the web: the upload, and what reading it may take.
const (
	ankiMaxUpload = 32 << 20
	ankiPath      = "/admin/import/anki"
)

var ankiLimits = anki.Limits{
	MaxEntries:    5000,
	MaxEntryBytes: 96 << 20,
	MaxTotalBytes: 128 << 20,
	MaxRatio:      100,
	MaxNotes:      5000,
	MaxField:      128 << 10,
	MaxMediaBytes: 2 << 20,
}

func init() { ownBodyLimit[ankiPath] = true } // the upload caps its body itself (ankiMaxUpload)

func (s *Server) ankiRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.requireAdmin)
		r.Post(ankiPath, s.ankiPreview)
		r.Post(ankiPath+"/save", s.ankiSave)
	})
	r.Group(func(r chi.Router) {
		r.Use(s.requireUser)
		r.Get("/account/export.apkg", s.accountExport) // export.go
		r.Post("/cards/{id}/suspend", s.cardSuspend)   // suspend.go
		r.Post("/study/suspend", s.studySuspend)       // suspend.go
	})
	r.Get("/media/{file}", s.media)
}

// ankiPreview is POST /admin/import/anki: read the uploaded package and show what it makes.
func (s *Server) ankiPreview(w http.ResponseWriter, r *http.Request) {
	bad := func(msg string) {
		s.renderImportForm(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: "Nothing was imported.", Fields: map[string]string{"apkg": msg}})
	}
	// Only a multipart upload may be large; anything else is held to every route's limit.
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		if _, err := io.Copy(io.Discard, r.Body); isTooBig(err) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		bad("Choose an Anki package (.apkg) to import.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, ankiMaxUpload)
	if err := r.ParseMultipartForm(1 << 20); err != nil { // the file spills to a temp file, removed after
		if isTooBig(err) {
			bad(fmt.Sprintf("The package is larger than %d MiB.", ankiMaxUpload>>20))
		} else {
			bad("The upload could not be read: it is not a valid multipart form.")
		}
		return
	}
	f, fh, err := r.FormFile("apkg")
	if err != nil {
		bad("Choose an Anki package (.apkg) to import.")
		return
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
	defer cancel()
	p, err := anki.Read(ctx, f, fh.Size, "", ankiLimits)
	if err != nil {
		if anki.IsRefusal(err) {
			bad(err.Error())
		} else {
			s.fail(w, r, err)
		}
		return
	}
	u := userFrom(r.Context())
	loc := userLocation(u)
	st := anki.NewStage(p, fh.Filename, s.deck(), scheduler(u), loc, s.now())
	v := cardform.AnkiPreview(st, p, func(t time.Time) string { return studyview.When(t, s.now(), loc) })
	if v.SaveWhy = s.importSaveProblem(); len(st.Cards) > 0 && v.SaveWhy == "" {
		st.Token, _ = auth.NewToken()
		s.anki.Put(u.ID, st)
		v.Token = st.Token
	}
	p2 := s.importPageModel(r, "Anki import preview")
	p2.CSS = append(p2.CSS, s.assets.URL("anki.css"))
	s.render(w, r, http.StatusOK, views.AnkiPreviewPage(p2, v))
}

// ankiSave is POST /admin/import/anki/save: store the previewed import, then reload the deck.
func (s *Server) ankiSave(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	st := s.anki.Take(u.ID, r.PostFormValue("token"), s.now())
	if st == nil {
		s.errorPage(w, r, http.StatusConflict, "Nothing was saved: this preview has expired or was saved already. Upload the package again.")
		return
	}
	if why := s.importSaveProblem(); why != "" {
		s.errorPage(w, r, http.StatusConflict, "Nothing was saved: "+why)
		return
	}
	out, reloadErr, err := s.cards.ImportAnki(r.Context(), u.ID, st)
	switch {
	case errors.Is(err, cardwrite.ErrNotEditable):
		s.errorPage(w, r, http.StatusConflict, "Nothing was saved: "+s.importSaveProblem())
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "anki package imported", "file", st.Name, "cards", out.Cards, "history", out.WithHistory, "by", u.Username)
	v := cardform.AnkiSaved(st.Name, out, reloadErr)
	s.logReload(r, v.Reload, reloadErr)
	p := s.importPageModel(r, "Anki cards imported")
	p.CSS = append(p.CSS, s.assets.URL("anki.css"))
	s.render(w, r, http.StatusOK, views.AnkiSavedPage(p, v))
}

// media is GET /media/{hash}.{ext}: an imported image, immutable under its hash.
func (s *Server) media(w http.ResponseWriter, r *http.Request) {
	file := chi.URLParam(r, "file")
	hash, _, _ := strings.Cut(file, ".")
	if len(hash) != 64 || strings.Trim(hash, "0123456789abcdef") != "" {
		s.notFound(w, r)
		return
	}
	m, err := s.db.MediaFile(readCtx(r), hash)
	if err == store.ErrNotFound { // an image of the user's own import preview, not saved yet
		if u := userFrom(r.Context()); u != nil {
			if sm, ok := s.anki.Image(u.ID, hash, s.now()); ok {
				m, err = store.Media{Hash: hash, Type: sm.Type, Data: sm.Data}, nil
			}
		}
	}
	if err != nil {
		if err == store.ErrNotFound {
			s.notFound(w, r)
		} else {
			s.fail(w, r, err)
		}
		return
	}
	h := w.Header()
	h.Set("Content-Type", m.Type)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Write(m.Data)
}

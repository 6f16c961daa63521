package server

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/anki"
	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Limits of an Anki import from the web: the upload, and what reading it may take.
const (
	ankiMaxUpload = 32 << 20
	ankiStageTTL  = 30 * time.Minute
	ankiPreviewed = 40 // cards shown in the preview; all are saved
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

// ankiStage is one previewed import: converted and checked, waiting for its save.
type ankiStage struct {
	token   string
	at      time.Time
	name    string
	cards   []anki.Imported
	media   []anki.Media
	history map[string]store.CardHistory // by card id
}

// ankiStages keeps at most one previewed import per user, for ankiStageTTL.
type ankiStages struct {
	mu sync.Mutex
	m  map[int64]*ankiStage
}

func (a *ankiStages) put(userID int64, st *ankiStage) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[int64]*ankiStage{}
	}
	for id, old := range a.m { // expired previews are dropped whenever a new one comes
		if st.at.Sub(old.at) > ankiStageTTL {
			delete(a.m, id)
		}
	}
	a.m[userID] = st
}

// take removes and returns the user's previewed import if token names it and it is fresh.
func (a *ankiStages) take(userID int64, token string, now time.Time) *ankiStage {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := a.m[userID]
	if st == nil || st.token != token || now.Sub(st.at) > ankiStageTTL {
		return nil
	}
	delete(a.m, userID)
	return st
}

// image is an image of the user's fresh previewed import, by hash.
func (a *ankiStages) image(userID int64, hash string, now time.Time) (anki.Media, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := a.m[userID]
	if st == nil || now.Sub(st.at) > ankiStageTTL {
		return anki.Media{}, false
	}
	for _, m := range st.media {
		if m.Hash == hash {
			return m, true
		}
	}
	return anki.Media{}, false
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
	cards, media := anki.Convert(p)
	d := s.deck()
	v := views.AnkiPreview{Name: fh.Filename, Format: p.Format, Notes: len(p.Notes), Images: len(media), SaveWhy: s.importSaveProblem()}
	st := &ankiStage{at: s.now(), name: fh.Filename, media: media, history: map[string]store.CardHistory{}}
	revs := map[int64][]anki.Review{}
	for _, r := range p.Revlog {
		revs[r.CardID] = append(revs[r.CardID], r)
	}
	sc, loc := scheduler(u), userLocation(u)
	topics := map[string]int{}
	for _, c := range cards {
		card, errs := deck.Parse(c.Path, c.Markdown)
		if len(errs) > 0 {
			v.Refused = append(v.Refused, fmt.Sprintf("%s: %s", c.ID, errs[0].Msg))
			continue
		}
		if old, ok := d.Card(c.ID); ok {
			v.Existing = append(v.Existing, fmt.Sprintf("%s (%s)", c.ID, old.File))
			continue
		}
		item := views.AnkiItem{Card: card, Suspended: c.Suspended}
		if len(c.AnkiCards) > 0 {
			if state, answers := anki.Replay(sc, c.ID, revs[c.AnkiCards[0]], loc); len(answers) > 0 {
				h := store.CardHistory{CardID: c.ID}
				for _, a := range answers {
					h.Answers = append(h.Answers, store.HistoryAnswer{Rating: a.Rating, At: a.At, DurationMS: a.TookMS, Before: a.Before, After: a.After})
				}
				st.history[c.ID] = h
				item.Answers, item.State = len(answers), state.State.String()
				item.Due = whenText(state.Due, s.now(), loc)
				v.WithHistory++
			}
		}
		topics[c.Topic]++
		st.cards = append(st.cards, c)
		if len(v.Items) < ankiPreviewed {
			v.Items = append(v.Items, item)
		}
		if c.Suspended {
			v.Suspended++
		}
	}
	v.Cards = len(st.cards)
	for t, n := range topics {
		v.Topics = append(v.Topics, fmt.Sprintf("%s (%d)", t, n))
	}
	sort.Strings(v.Topics)
	if len(st.cards) > 0 && v.SaveWhy == "" {
		st.token, _ = auth.NewToken()
		s.anki.put(u.ID, st)
		v.Token = st.token
	}
	p2 := s.importPageModel(r, "Anki import preview")
	p2.CSS = append(p2.CSS, s.assets.URL("anki.css"))
	s.render(w, r, http.StatusOK, views.AnkiPreviewPage(p2, v))
}

// ankiSave is POST /admin/import/anki/save: store the previewed import, then reload the deck.
func (s *Server) ankiSave(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	st := s.anki.take(u.ID, r.PostFormValue("token"), s.now())
	if st == nil {
		s.errorPage(w, r, http.StatusConflict, "Nothing was saved: this preview has expired or was saved already. Upload the package again.")
		return
	}
	if why := s.importSaveProblem(); why != "" {
		s.errorPage(w, r, http.StatusConflict, "Nothing was saved: "+why)
		return
	}
	l, release := s.cards.Hold() // one card change at a time
	defer release()
	if l == nil {
		s.errorPage(w, r, http.StatusConflict, "Nothing was saved: "+s.importSaveProblem())
		return
	}
	d := l.Deck
	im := store.AnkiImport{UserID: u.ID}
	var skipped []string
	for _, c := range st.cards {
		if _, ok := d.Card(c.ID); ok { // saved since the preview
			skipped = append(skipped, c.ID)
			continue
		}
		im.Cards = append(im.Cards, store.DeckCard{ID: c.ID, Path: c.Path, Markdown: string(c.Markdown)})
		if h, ok := st.history[c.ID]; ok {
			im.History = append(im.History, h)
		}
		if c.Suspended {
			im.Suspend = append(im.Suspend, c.ID)
		}
	}
	for _, m := range st.media {
		im.Media = append(im.Media, store.Media{Hash: m.Hash, Type: m.Type, Data: m.Data})
	}
	n, err := s.db.ImportAnki(r.Context(), im, s.now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "anki package imported", "file", st.name, "cards", len(im.Cards), "history", n, "by", u.Username)
	vm := views.ImportSaved{}
	s.reloadAfterImport(r, &vm)
	v := views.AnkiSaved{Name: st.name, Cards: len(im.Cards), WithHistory: n, Images: len(im.Media), Skipped: skipped,
		Reload: vm.Reload, ReloadErrors: vm.ReloadErrors, ReloadOther: vm.ReloadOther}
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
			if sm, ok := s.anki.image(u.ID, hash, s.now()); ok {
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

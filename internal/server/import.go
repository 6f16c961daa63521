package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/importer"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Limits of a web import. The whole body is also capped by maxBody.
const (
	importMaxFiles = 50
	importMaxFile  = 256 << 10
	importMemory   = 64 << 10 // parts above this spill to temp files, removed after the request
	importDir      = "imported"
)

// importPage is GET /admin/import: the upload form.
func (s *Server) importPage(w http.ResponseWriter, r *http.Request) {
	s.renderImportForm(w, r, http.StatusOK, nil)
}

func (s *Server) renderImportForm(w http.ResponseWriter, r *http.Request, status int, fe *views.FormError) {
	s.render(w, r, status, views.ImportUpload(s.importPageModel(r, "Import cards"), views.ImportForm{
		MaxFiles: importMaxFiles, MaxFileKB: importMaxFile >> 10, SaveWhy: s.importSaveProblem(), Err: fe,
	}))
}

func (s *Server) importPageModel(r *http.Request, title string) views.Page {
	p := s.page(r, title)
	p.CSS = append(p.CSS, s.assets.URL("import.css"))
	return p
}

func filesError(msg string) *views.FormError {
	return &views.FormError{Form: "Nothing was imported.", Fields: map[string]string{"files": msg}}
}

// parseImportForm reads a multipart body; an url-encoded one was already parsed by limitBody.
// On false the response (via bad, or a 413) has been written.
func (s *Server) parseImportForm(w http.ResponseWriter, r *http.Request, bad func(string)) bool {
	err := r.ParseMultipartForm(importMemory)
	switch {
	case err == nil, errors.Is(err, http.ErrNotMultipart):
		return true
	case isTooBig(err):
		s.errorPage(w, r, http.StatusRequestEntityTooLarge, "The upload is larger than 1 MiB in all: send fewer files at a time.")
	default:
		bad("The upload could not be read: it is not a valid multipart form.")
	}
	return false
}

func isTooBig(err error) bool {
	var tooBig *http.MaxBytesError
	return errors.As(err, &tooBig)
}

// importPreview is POST /admin/import: convert each uploaded file and show the cards.
func (s *Server) importPreview(w http.ResponseWriter, r *http.Request) {
	bad := func(msg string) { s.renderImportForm(w, r, http.StatusUnprocessableEntity, filesError(msg)) }
	if !s.parseImportForm(w, r, bad) {
		return
	}
	var files []*multipart.FileHeader
	if r.MultipartForm != nil {
		for _, fh := range r.MultipartForm.File["files"] {
			if fh.Filename != "" || fh.Size > 0 { // a form sent with no file chosen has one empty part
				files = append(files, fh)
			}
		}
	}
	if len(files) == 0 {
		bad("Choose one or more plain-text (.txt) files to import.")
		return
	}
	if len(files) > importMaxFiles {
		bad(fmt.Sprintf("%d files were sent; import at most %d at a time.", len(files), importMaxFiles))
		return
	}
	var big []string
	for _, fh := range files {
		if fh.Size > importMaxFile {
			big = append(big, fmt.Sprintf("%s (%d KiB)", fh.Filename, (fh.Size+1023)>>10))
		}
	}
	if len(big) > 0 {
		bad(fmt.Sprintf("Each file may be at most %d KiB; too large: %s.", importMaxFile>>10, strings.Join(big, ", ")))
		return
	}

	d, l := s.deck(), s.loaded()
	saveWhy := s.importSaveProblem()
	vm := views.ImportPreview{SaveWhy: saveWhy, Target: "FOLDER"}
	firstFile := map[string]string{} // id -> file that produced it first
	for _, fh := range files {
		src, err := readPart(fh)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if err := importer.CheckText(fh.Filename, src); err != nil { // an .apkg, a PDF: one line
			bad(err.Error())
			return
		}
		md, id, problems := importer.Import(fh.Filename, src, s.cfg.ImportTopics)
		it := views.ImportItem{Name: fh.Filename, ID: id, Markdown: string(md)}
		for _, p := range problems {
			it.Problems = append(it.Problems, p.Error())
		}
		card, errs := deck.Parse(importDir+"/"+id+".md", md)
		if len(errs) > 0 {
			it.Errors = errorStrings(errs)
		} else {
			it.Card = card
			warnings := deck.SpokenProblems(card)
			if d != nil { // name the file the card would be saved as
				for i := range warnings {
					warnings[i].File = cardwrite.Target(d, card.ID, "", card.Topic).Path
				}
			}
			it.Warnings = errorStrings(warnings)
			if l != nil { // Save's own checks, so the preview shows exactly what it would refuse
				it.Notes = s.importRefusals(r.Context(), l, card, md)
			} else {
				it.Notes = s.importConflicts(d, card.ID)
			}
			for _, m := range editor.Similar(d, card.Question, "") {
				it.Similar = append(it.Similar, fmt.Sprintf("Its question is %d%% like that of %q (%s): is it the same card?", int(m.Score*100+0.5), m.Card.Question, m.Card.ID))
			}
			if prev, dup := firstFile[card.ID]; dup {
				it.Notes = append(it.Notes, fmt.Sprintf("%s also became card %q; only the first is saved. Download this one and give it another id.", prev, card.ID))
			} else {
				firstFile[card.ID] = fh.Filename
			}
		}
		vm.Items = append(vm.Items, it)
	}
	s.render(w, r, http.StatusOK, views.ImportPreviewPage(s.importPageModel(r, "Import preview"), vm))
}

func readPart(fh *multipart.FileHeader) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, importMaxFile))
}

func errorStrings(list deck.ErrorList) []string {
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.Error()
	}
	return out
}

// importRefusals runs the checks importSave runs on one card and says why it would refuse it
// (nil: it would save it).
func (s *Server) importRefusals(ctx context.Context, l *deckload.Loaded, card *deck.Card, src []byte) []string {
	if !editor.IsSlug(card.ID) {
		return []string{fmt.Sprintf("id %q is not a slug.", card.ID)}
	}
	if msgs := s.importConflicts(l.Deck, card.ID); len(msgs) > 0 {
		return msgs
	}
	if _, errs := s.cards.Check(ctx, l, cardwrite.Target(l.Deck, card.ID, "", card.Topic), src); len(errs) > 0 {
		return errorStrings(errs)
	}
	return nil
}

// importConflicts says why a card could not be saved: its id is in the running deck.
func (s *Server) importConflicts(d *deck.Deck, id string) []string {
	if d != nil {
		if c, ok := d.Card(id); ok {
			return []string{fmt.Sprintf("The deck already has a card with id %q (%s); saving refuses it.", id, c.File)}
		}
	}
	return nil
}

// importSaveProblem says why saving imported cards is unavailable, or "" when it is.
func (s *Server) importSaveProblem() string {
	if s.loaded() == nil {
		return cardwrite.ErrNotEditable.Error() + "."
	}
	return ""
}

// importSave is POST /admin/import/save: store each card in the app (in the folder of its
// topic, else imported/), then reload the deck. Every card is parsed again: the form could carry anything.
func (s *Server) importSave(w http.ResponseWriter, r *http.Request) {
	bad := func(msg string) { s.errorPage(w, r, http.StatusUnprocessableEntity, msg) }
	if !s.parseImportForm(w, r, bad) {
		return
	}
	if why := s.importSaveProblem(); why != "" {
		s.errorPage(w, r, http.StatusConflict, "Nothing was saved: "+why)
		return
	}
	mds, names := r.PostForm["md"], r.PostForm["name"]
	if len(mds) == 0 {
		bad("Nothing to save: upload files on the import page first.")
		return
	}
	if len(mds) > importMaxFiles {
		bad(fmt.Sprintf("%d cards were sent; save at most %d at a time.", len(mds), importMaxFiles))
		return
	}
	l, release := s.cards.Hold()
	defer release()
	if l == nil {
		bad(cardwrite.ErrNotEditable.Error() + ".")
		return
	}
	d := l.Deck
	var vm views.ImportSaved
	saved := 0
	seen := map[string]bool{}
	for i, md := range mds {
		res := views.ImportResult{Name: fmt.Sprintf("card %d", i+1)}
		if i < len(names) && names[i] != "" {
			res.Name = names[i]
		}
		src := bytes.ReplaceAll([]byte(md), []byte("\r\n"), []byte("\n")) // browsers send CRLF
		res.Markdown = string(src)                                        // a refused card is shown again
		card, errs := deck.Parse(res.Name, src)
		if len(errs) == 0 {
			res.Card, res.Warnings = card, errorStrings(deck.SpokenProblems(card))
		}
		switch {
		case len(errs) > 0:
			res.Msgs = errorStrings(errs)
		case seen[card.ID]:
			res.ID, res.Msgs = card.ID, []string{fmt.Sprintf("card %q appears twice in this batch; the first was kept.", card.ID)}
		default:
			res.ID = card.ID
			seen[card.ID] = true
			if msgs := s.importRefusals(r.Context(), l, card, src); len(msgs) > 0 {
				res.Msgs = msgs
				break
			}
			t := cardwrite.Target(d, card.ID, "", card.Topic)
			var userID int64
			if u := userFrom(r.Context()); u != nil {
				userID = u.ID
			}
			if _, err := s.db.SaveDeckCard(r.Context(), store.DeckCard{ID: card.ID, Path: t.Path, Markdown: string(src)}, store.ActionImport, userID, s.now()); err != nil {
				s.fail(w, r, err)
				return
			}
			res.Saved, res.Path = true, t.Path
			saved++
		}
		vm.Results = append(vm.Results, res)
	}
	status := http.StatusUnprocessableEntity
	if saved > 0 {
		status = http.StatusOK
		s.log.InfoContext(r.Context(), "cards imported", "saved", saved, "sent", len(mds), "by", userFrom(r.Context()).Username)
		s.reloadAfterImport(r, &vm)
	}
	s.render(w, r, status, views.ImportSavedPage(s.importPageModel(r, "Imported cards"), vm))
}

func (s *Server) reloadAfterImport(r *http.Request, vm *views.ImportSaved) {
	err := s.reloadDecks()
	var list deck.ErrorList
	switch {
	case err == nil:
		vm.Reload = "ok"
	case errors.Is(err, deckload.ErrNotReloadable):
		vm.Reload = "static"
	case errors.As(err, &list):
		vm.Reload = "failed"
		for _, e := range list {
			vm.ReloadErrors = append(vm.ReloadErrors, views.DeckError{File: e.File, Line: e.Line, Msg: e.Msg})
		}
	default:
		vm.Reload, vm.ReloadOther = "failed", err.Error()
	}
	if err != nil && vm.Reload == "failed" {
		s.log.WarnContext(r.Context(), "deck reload after import failed; the running deck stays", "err", err)
	}
}

// importDownload is POST /admin/import/download: one card's markdown as a file.
func (s *Server) importDownload(w http.ResponseWriter, r *http.Request) {
	bad := func(msg string) { s.errorPage(w, r, http.StatusUnprocessableEntity, msg) }
	if !s.parseImportForm(w, r, bad) {
		return
	}
	md := r.PostFormValue("md")
	if strings.TrimSpace(md) == "" {
		bad("Nothing to download: the card's markdown is missing.")
		return
	}
	src := bytes.ReplaceAll([]byte(md), []byte("\r\n"), []byte("\n"))
	card, errs := deck.Parse("download.md", src)
	if len(errs) > 0 {
		bad("The card does not parse: " + strings.Join(errorStrings(errs), "; "))
		return
	}
	if !editor.IsSlug(card.ID) { // it goes into a header
		bad(fmt.Sprintf("The card id %q is not a slug.", card.ID))
		return
	}
	w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+card.ID+`.md"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(src)
}

package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/rehearse/rehearse/internal/cardform"
	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/views"
)

// Limits of a web import. The whole body is also capped by maxBody.
const (
	importMaxFiles = 50
	importMaxFile  = 256 << 10
	importMemory   = 64 << 10 // parts above this spill to temp files, removed after the request
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

	uploads := make([]cardform.Upload, len(files))
	for i, fh := range files {
		src, err := readPart(fh)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		uploads[i] = cardform.Upload{Name: fh.Filename, Data: src}
	}
	d, l := s.deck(), s.loaded()
	refusals := func(c *deck.Card, md []byte) []string { return cardwrite.Conflicts(d, c.ID) }
	if l != nil { // Save's own checks, so the preview shows exactly what it would refuse
		refusals = func(c *deck.Card, md []byte) []string { return s.cards.Refusals(r.Context(), l, c, md) }
	}
	vm, err := cardform.ImportPreview(uploads, s.cfg.ImportTopics, d, refusals)
	if err != nil { // an .apkg, a PDF: one line
		bad(err.Error())
		return
	}
	vm.SaveWhy = s.importSaveProblem()
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
	sent := make([]cardwrite.Sent, len(mds))
	for i, md := range mds {
		sent[i] = cardwrite.Sent{Name: fmt.Sprintf("card %d", i+1), Src: bytes.ReplaceAll([]byte(md), []byte("\r\n"), []byte("\n"))} // browsers send CRLF
		if i < len(names) && names[i] != "" {
			sent[i].Name = names[i]
		}
	}
	res, saved, reloadErr, err := s.cards.Import(r.Context(), idOf(userFrom(r.Context())), sent)
	switch {
	case errors.Is(err, cardwrite.ErrNotEditable):
		bad(err.Error() + ".")
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	vm := cardform.ImportSaved(res, saved, reloadErr)
	status := http.StatusUnprocessableEntity
	if saved > 0 {
		status = http.StatusOK
		s.log.InfoContext(r.Context(), "cards imported", "saved", saved, "sent", len(mds), "by", userFrom(r.Context()).Username)
		s.logReload(r, vm.Reload, reloadErr)
	}
	s.render(w, r, status, views.ImportSavedPage(s.importPageModel(r, "Imported cards"), vm))
}

// logReload notes a deck reload after an import that failed.
func (s *Server) logReload(r *http.Request, outcome string, err error) {
	if outcome == "failed" {
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
		bad("The card does not parse: " + strings.Join(cardwrite.ErrorStrings(errs), "; "))
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

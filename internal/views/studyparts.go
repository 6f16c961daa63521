package views

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"
)

// The study page's counts and rating buttons are written here rather than in study.templ:
// templ renders an element with a class list through a buffer of its own and a join, which
// was a twentieth of the page's CPU. The markup is the same.

// studyCounts is the three queue counts, the current card's part marked.
func studyCounts(v StudyPage) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		b := make([]byte, 0, 400)
		b = appendCount(b, "learning", "Learning: due again soon", v.Learning, v.Kind == "learning")
		b = append(b, ' ')
		b = appendCount(b, "review", "Review: due today", v.Review, v.Kind == "review")
		b = append(b, ' ')
		b = appendCount(b, "new", "New: not seen yet", v.New, v.Kind == "new")
		_, err := w.Write(b)
		return err
	})
}

// appendCount is one count; kind is learning, review or new.
func appendCount(b []byte, kind, title string, n int, current bool) []byte {
	b = append(b, `<span class="count count-`...)
	b = append(b, kind...)
	if current {
		b = append(b, ` current`...)
	}
	b = append(b, `" title="`...)
	b = append(b, templ.EscapeString(title)...)
	b = append(b, `"><span id="count-`...)
	b = append(b, kind...)
	b = append(b, `">`...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `</span> `...)
	b = append(b, kind...)
	return append(b, `</span>`...)
}

// rateButton is one rating button with the interval it gives.
func rateButton(btn StudyButton) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		n := strconv.Itoa(btn.Rating)
		label := templ.EscapeString(btn.Label)
		b := make([]byte, 0, 200)
		b = append(b, `<button type="submit" name="rating" value="`...)
		b = append(b, n...)
		b = append(b, `" id="rate-`...)
		b = append(b, n...)
		b = append(b, `" class="rate rate-`...)
		b = append(b, label...)
		b = append(b, `"><span class="rate-label">`...)
		b = append(b, label...)
		b = append(b, `</span> <span class="rate-ivl">`...)
		b = append(b, templ.EscapeString(btn.Interval)...)
		b = append(b, `</span> <kbd>`...)
		b = append(b, n...)
		b = append(b, `</kbd></button>`...)
		_, err := w.Write(b)
		return err
	})
}
